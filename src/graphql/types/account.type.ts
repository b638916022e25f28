import { Field, ID, Int, ObjectType } from 'type-graphql'

@ObjectType({ description: 'A dashboard account; it owns one tenant', simpleResolvers: true })
export class Account {
  @Field(() => ID) id!: string
  @Field(() => String) email!: string
  @Field(() => ID) tenantId!: string
  @Field(() => String) tenantName!: string
}

@ObjectType({
  description: 'A new session: the cookie is set on the response; the browser echoes csrfToken in x-csrf-token',
  simpleResolvers: true,
})
export class SessionInfo {
  @Field(() => Account) account!: Account
  @Field(() => String) csrfToken!: string
}

@ObjectType({ description: "An app of the account's tenant; its key is shown only when issued", simpleResolvers: true })
export class DashboardApp {
  @Field(() => ID) id!: string
  @Field(() => String, {
    description:
      "The app's slug: its handle in the CLI and scripts (letters, digits, '.', '_', '-'); derived from the " +
      'display name when not given',
  })
  name!: string
  @Field(() => String, {
    description: 'The name a person gave the app ("My Web App"): 1-100 characters, unique in the account ignoring case',
  })
  displayName!: string
  @Field(() => String) createdAt!: string
  @Field(() => String, { nullable: true, description: 'pk_<public id> of the live key; null when revoked' }) keyPrefix!:
    | string
    | null
  @Field(() => String, { nullable: true }) keyCreatedAt!: string | null
  @Field(() => Int, {
    nullable: true,
    description:
      'Retention: profiles untouched this many days are deleted (when every app that wrote them agrees); null = never',
  })
  deleteProfilesAfterDays!: number | null
  @Field(() => Int, {
    nullable: true,
    description:
      "Retention: the raw text of this app's submissions is dropped this many days after they finished; null = never",
  })
  dropSubmissionTextAfterDays!: number | null
  @Field(() => [String], {
    description:
      'What the summaries of profiles this app writes to must cover or leave out: at most 5 instructions of ' +
      '1-200 characters (docs/guides/summary-instructions.md)',
  })
  summaryInstructions!: string[]
}

@ObjectType({ description: 'An app with its new API key: the only time the key is shown', simpleResolvers: true })
export class AppWithKey {
  @Field(() => DashboardApp) app!: DashboardApp
  @Field(() => String) apiKey!: string
}
