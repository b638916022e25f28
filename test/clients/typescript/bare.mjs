// A user's script in a project that installed the client alone (no `ai`, no `ws`): the REST client works, and so does
// importing the AI SDK subpath (it loads nothing of `ai` at run time). Prints one JSON object.
import { ProfilerClient, ProfilerNotFoundError } from '@profiler/client'
import { profilerMemory } from '@profiler/client/ai-sdk'

const client = new ProfilerClient({ url: process.env.PROFILER_URL, apiKey: process.env.PROFILER_API_KEY })
const profileId = `dana-${process.env.RUN_ID}`
const out = {}

await client.submit(profileId, 'My name is Dana and I live in Madrid. I play the piano.')
const profile = await client.waitUntilReady(profileId, { transport: 'polling' })
out.location = profile.core_info?.location?.value
out.context = (await client.context(profileId, { query: 'music', maxTokens: 100 })).text
out.middleware = Object.keys(profilerMemory({ client, profileId })).sort()
await client.delete(profileId)
try {
  await client.get(profileId)
} catch (e) {
  out.afterDelete = { notFound: e instanceof ProfilerNotFoundError, status: e.status }
}
console.log(JSON.stringify(out))
