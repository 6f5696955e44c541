// GraphQL Code Generator plugin: the Apollo Client 4 hooks (`useXQuery`, `useXMutation`,
// `useXSubscription`) of the
// operations in one `.graphql` file, written into the module the near-operation-file preset makes
// beside it. The documents and their types come from the maintained plugins that run before this
// one (typed-document-node, typescript-operations); this plugin only wraps them in hooks.
//
// Why our own: @graphql-codegen/typescript-react-apollo (5.0.0) targets Apollo Client 3. It
// imports the hooks from `@apollo/client` and types them with `QueryHookOptions`/`MutationTuple`,
// which Apollo Client 4 moved to `@apollo/client/react` as `useQuery.Options` and
// `useMutation.ResultTuple` (dotansimha/graphql-code-generator-community#1177, still open).
// No lazy-query hooks: no screen uses one (add `useLazyQuery` here when one does). Subscriptions
// get `useXSubscription`, Apollo Client 4's `useSubscription` with the operation's types.
'use strict';

const { Kind } = require('graphql');

/** Whether a caller must pass variables: some variable is non-null without a default. */
function needsVariables(operation) {
  return (operation.variableDefinitions ?? []).some(
    (variable) => variable.type.kind === Kind.NON_NULL_TYPE && variable.defaultValue === undefined,
  );
}

function queryHook(operation) {
  const base = operation.name.value;
  const data = `${base}Query`;
  const variables = `${data}Variables`;
  const optional = needsVariables(operation) ? '' : '?';
  return (
    `/** Runs the \`${base}\` query. */\n` +
    `export function use${data}(options${optional}: useQuery.Options<${data}, ${variables}>): useQuery.Result<${data}, ${variables}> {\n` +
    `  return useQuery(${base}Document, options ?? {});\n}`
  );
}

function mutationHook(operation) {
  const base = operation.name.value;
  const data = `${base}Mutation`;
  const variables = `${data}Variables`;
  return (
    `/** Prepares the \`${base}\` mutation. */\n` +
    `export function use${data}(options?: useMutation.Options<${data}, ${variables}>): useMutation.ResultTuple<${data}, ${variables}> {\n` +
    `  return useMutation<${data}, ${variables}>(${base}Document, options);\n}`
  );
}

function subscriptionHook(operation) {
  const base = operation.name.value;
  const data = `${base}Subscription`;
  const variables = `${data}Variables`;
  const optional = needsVariables(operation) ? '' : '?';
  return (
    `/** Follows the \`${base}\` subscription (over the WebSocket, see web/src/session/live-link.ts). */\n` +
    `export function use${data}(options${optional}: useSubscription.Options<${data}, ${variables}>): useSubscription.Result<${data}> {\n` +
    `  return useSubscription(${base}Document, options ?? {});\n}`
  );
}

const hooks = {
  query: { apollo: 'useQuery', write: queryHook },
  mutation: { apollo: 'useMutation', write: mutationHook },
  subscription: { apollo: 'useSubscription', write: subscriptionHook },
};

/** @type {import('@graphql-codegen/plugin-helpers').CodegenPlugin} */
module.exports = {
  plugin(_schema, documents) {
    const operations = documents
      .flatMap((file) => file.document?.definitions ?? [])
      .filter((definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.operation in hooks);
    if (operations.length === 0) return '';
    for (const operation of operations) {
      if (!operation.name) throw new Error('Every operation needs a name: its hook is named for it.');
    }
    operations.sort((a, b) => a.name.value.localeCompare(b.name.value));
    const apollo = [...new Set(operations.map((operation) => hooks[operation.operation].apollo))].sort();
    return {
      prepend: [`import { ${apollo.join(', ')} } from '@apollo/client/react';`],
      content: `\n${operations.map((operation) => hooks[operation.operation].write(operation)).join('\n\n')}\n`,
    };
  },
};
