import { GraphQLJSONObject } from 'graphql-scalars'
import { Field, ID, Int, ObjectType } from 'type-graphql'

@ObjectType({ simpleResolvers: true, description: "A version of an app's custom profile schema" })
export class CustomSchemaVersion {
  @Field(() => ID) appId!: string
  @Field(() => Int, { description: '0 when the app never set a schema' }) version!: number
  @Field(() => GraphQLJSONObject, {
    description:
      '{"sections": {"<section>": {"<field>": {"type": "string|string[]|integer|number|boolean|enum", ' +
      '"description"?, "values"?, "min"?, "max"?}}}}',
  })
  schema!: Record<string, unknown>
  @Field(() => String, { nullable: true }) createdAt!: string | null
}

@ObjectType({ simpleResolvers: true, description: 'What setting a custom schema did' })
export class CustomSchemaChange extends CustomSchemaVersion {
  @Field(() => Boolean, { description: 'False when the schema equals the current one (no new version)' })
  changed!: boolean
  @Field(() => [String], {
    description: 'section.field no longer declared by any app of the tenant: their values moved to profile history',
  })
  droppedFields!: string[]
  @Field(() => Int, { description: 'Profiles whose dropped values were moved to their history' })
  profilesUpdated!: number
}
