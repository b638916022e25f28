import { Arg, Ctx, ID, Resolver, Root, Subscription } from 'type-graphql'
import type { EventMap } from '../../events/event-bus.js'
import type { GqlContext } from '../context.js'
import { eventStream } from '../event-stream.js'
import { toGqlProfile } from '../serializers.js'
import { ProfileEventStatus } from '../types/enums.js'
import { ProfileStatusEvent } from '../types/operations.type.js'

type StatusEvent = EventMap['profileStatusChanged']

@Resolver()
export class StatusResolver {
  @Subscription(() => ProfileStatusEvent, {
    description: "One event per status change, in order; id omitted = every profile of the caller's tenant",
    subscribe: ({ args, context }) => {
      const { ctx, services } = context as GqlContext
      return eventStream<StatusEvent>((push) => services.profiles.watchStatus(ctx, (args.id as string | null) ?? null, push))
    },
  })
  async profileStatusChanged(
    @Root() event: StatusEvent,
    @Arg('id', () => ID, { nullable: true }) _id: string | null,
    @Ctx() { ctx, services }: GqlContext,
  ): Promise<ProfileStatusEvent> {
    const profile = event.status === 'deleted' ? null : await services.profiles.find(ctx, event.profileId)
    return { profileId: event.profileId, status: event.status as ProfileEventStatus, profile: profile ? toGqlProfile(profile) : null }
  }
}
