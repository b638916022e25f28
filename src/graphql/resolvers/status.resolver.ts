import { Arg, Ctx, ID, Resolver, Root, Subscription } from 'type-graphql'
import type { EventMap } from '../../events/event-bus.js'
import type { GqlContext } from '../context.js'
import type { ProfileRecord } from '../../db/profile.repository.js'
import { eventStream } from '../event-stream.js'
import { SingleFlight } from '../single-flight.js'
import { toGqlProfile } from '../serializers.js'
import { ProfileEventStatus } from '../types/enums.js'
import { ProfileStatusEvent } from '../types/operations.type.js'

type StatusEvent = EventMap['profileStatusChanged']

/** The profile as of an event, read once for all of its subscribers (by tenant, profile and the event's order). */
const atEvent = new SingleFlight<ProfileRecord | null>()

@Resolver()
export class StatusResolver {
  @Subscription(() => ProfileStatusEvent, {
    description: "One event per status change, in order; id omitted = every profile of the caller's tenant",
    subscribe: ({ args, context }) => {
      const { ctx, services } = context as GqlContext
      return eventStream<StatusEvent>((push) =>
        services.profiles.watchStatus(ctx, (args.id as string | null) ?? null, push),
      )
    },
  })
  async profileStatusChanged(
    @Root() event: StatusEvent,
    @Arg('id', () => ID, { nullable: true }) _id: string | null,
    @Ctx() { ctx, services, budgetKey, eventCost }: GqlContext,
  ): Promise<ProfileStatusEvent> {
    // Each event resolves the subscription's selection again: its context fields are charged as they would be over
    // REST, before they run (RATE_LIMITED for this event when the budget is spent; the subscription goes on).
    if (eventCost && budgetKey) services.budget.charge(budgetKey, eventCost)
    const profile =
      event.status === 'deleted'
        ? null
        : await atEvent.run(`${ctx.tenantId}\u0000${event.profileId}\u0000${event.seq ?? event.at}`, () =>
            services.profiles.find(ctx, event.profileId),
          )
    return {
      profileId: event.profileId,
      status: event.status as ProfileEventStatus,
      profile: profile ? toGqlProfile(profile) : null,
    }
  }
}
