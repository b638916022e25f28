import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql'
import { ExportCap } from '../../services/export.service.js'
import type { GqlContext } from '../context.js'

/**
 * The largest exportProfile answer, all of an operation's exportProfile fields together; more is exported over REST,
 * which streams.
 */
const MAX_EXPORT_BYTES = 8 * 1024 * 1024

/**
 * One profile's export as JSON Lines text, for GraphQL clients (and the dashboard). A whole tenant is exported over
 * REST (GET /v1/export), which streams: a GraphQL answer is built whole in memory.
 */
@Resolver()
export class ExportResolver {
  @Query(() => String, {
    description:
      'The export of one profile as JSON Lines (the format of GET /v1/export: header, profile, history, ' +
      'submissions, end); PROFILE_NOT_FOUND when unknown, PAYLOAD_TOO_LARGE over 8 MiB (all exportProfile ' +
      'fields of an operation together; use GET /v1/export?profile_id=…)',
  })
  async exportProfile(
    @Arg('id', () => ID) id: string,
    @Arg('includeText', () => Boolean, { defaultValue: false, description: "Also each submission's raw text" })
    includeText: boolean,
    @Ctx() gctx: GqlContext,
  ): Promise<string> {
    const { ctx, services } = gctx
    // Every exportProfile of the operation (aliases) shares one cap and is built after the one before it: 15 aliases
    // of a large profile build at most the cap in all, and one profile's pages are held at a time.
    const cap = (gctx.exportCap ??= new ExportCap(MAX_EXPORT_BYTES))
    return cap.run(() => services.exports.profileText(ctx, id, { includeText, cap }))
  }
}
