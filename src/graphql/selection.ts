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
    set.selections.flatMap((selection) => {
      if (selection.kind === Kind.FIELD) return [selection]
      if (selection.kind === Kind.INLINE_FRAGMENT) return fields(selection.selectionSet, seen)
      const fragment = info.fragments[selection.name.value]
      if (!fragment || seen.has(fragment.name.value)) return []
      seen.add(fragment.name.value)
      return fields(fragment.selectionSet, seen)
    })
  for (const name of path)
    sets = sets.flatMap((set) =>
      fields(set)
        .filter((f) => f.name.value === name && f.selectionSet)
        .map((f) => f.selectionSet!),
    )
  return new Set(sets.flatMap((set) => fields(set).map((f) => f.name.value)))
}
