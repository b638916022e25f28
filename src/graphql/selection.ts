import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql'

/**
 * The names of the fields selected at `path` below the field being resolved (`['profiles', 'profile']` in
 * searchProfiles), through fragments and inline fragments, whatever their aliases.
 */
export function selectedFieldNames(
  info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>,
  path: string[],
): Set<string> {
  let sets: SelectionSetNode[] = info.fieldNodes.flatMap((f) => (f.selectionSet ? [f.selectionSet] : []))
  const fields = (set: SelectionSetNode, seen = new Set<string>()): FieldNode[] =>
    set.selections.flatMap((s) => {
      if (s.kind === Kind.FIELD) return [s]
      if (s.kind === Kind.INLINE_FRAGMENT) return fields(s.selectionSet, seen)
      const f = info.fragments[s.name.value]
      if (!f || seen.has(f.name.value)) return []
      seen.add(f.name.value)
      return fields(f.selectionSet, seen)
    })
  for (const name of path)
    sets = sets.flatMap((set) =>
      fields(set)
        .filter((f) => f.name.value === name && f.selectionSet)
        .map((f) => f.selectionSet!),
    )
  return new Set(sets.flatMap((set) => fields(set).map((f) => f.name.value)))
}
