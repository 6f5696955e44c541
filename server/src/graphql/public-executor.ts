import type { FastifyReply, FastifyRequest } from 'fastify';
import type {
  DocumentNode,
  GraphQLFormattedError,
  GraphQLSchema,
  OperationDefinitionNode,
  ValidationRule,
  GraphQLError,
} from 'graphql';
import { Kind, OperationTypeNode, execute, getOperationAST, parse, specifiedRules, validate } from 'graphql';
import type { ExecutionResult } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import { strongEtag } from '../http/answer-headers.js';
import { compiledQueryOf } from './compiled-query.js';
import type { AnswerCache, KeptAnswer, Ticket } from './answer-cache.js';
import type { Context } from './context.js';
import { ErrorCode } from './errors.js';
import { MAX_TOKENS, requestLimits } from './limits.js';
import { rateLimitHeadersOf } from './rate-limit-plugin.js';
import { hasUnstorableLiteral, unstorableTextAt } from './text-guard.js';
import { operationRequestOf } from './operation-request.js';
import type { OperationRequest } from './operation-request.js';

/** What Apollo answers for each `Accept` header we take (its own negotiation); others go to Apollo. */
const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';
const ANSWER_TYPES: ReadonlyMap<string, string> = new Map([
  ['', JSON_TYPE],
  ['*/*', JSON_TYPE],
  ['application/json', JSON_TYPE],
  ['application/graphql-response+json', GRAPHQL_RESPONSE_TYPE],
  // Apollo Client's own header.
  ['application/graphql-response+json,application/json;q=0.9', GRAPHQL_RESPONSE_TYPE],
]);

/** graphql-armor's mask for "Did you mean …?" in production (its `blockFieldSuggestion` plugin). */
const SUGGESTION = /Did you mean ".+"/g;
const SUGGESTION_MASK = '[Suggestion hidden]';

/** Documents kept parsed and validated: by count, and by source size so that big ones cannot crowd memory. */
const DOCUMENTS_MAX = 500;
const DOCUMENTS_MAX_CHARS = 2_000_000;

/** A valid document, with its operations compiled by graphql-jit as they are first asked for (false: it could not). */
interface KeptDocument {
  document: DocumentNode;
  compiled: Map<string, CompiledQuery | false>;
}

export interface PublicExecutorOptions {
  schema: GraphQLSchema;
  /**
   * The Query fields anyone may call (`@Public()`): an anonymous operation qualifies when it selects
   * only these; a signed-in caller's may select any Query field but introspection.
   */
  publicFields: ReadonlySet<string>;
  /**
   * The Mutation fields anyone may call (`@Public()`: signing up, signing in, the emailed links). A
   * mutation qualifies, sent by POST, when it selects only these; every other mutation is Apollo's.
   */
  publicMutations: ReadonlySet<string>;
  production: boolean;
  /** The context factory Apollo's requests use too (it verifies the caller's token). */
  context: (request: FastifyRequest) => Promise<Context>;
  /** Apollo's `formatError`: expected errors kept, the rest masked and logged. */
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  /** Headers the Apollo plugins would add to this answer (CORS for the open queries). */
  responseHeaders?: (request: FastifyRequest, operation: OperationDefinitionNode) => [string, string][];
  /**
   * True when a mutation must be refused for where it came from (http/cross-site.ts): the executor
   * leaves it to Apollo, whose plugin gives the refusal, so that the rule is applied in one place.
   */
  refusesMutation?: (request: FastifyRequest) => boolean;
  /** Sees every answer and its formatted errors, as Apollo's plugins do (metrics). */
  observeAnswer?: (errors: readonly GraphQLFormattedError[]) => void;
  /**
   * Keeps whole answers to anonymous queries that select only `fields` at their root (and answer
   * without errors); `onHit` sees each answer served from it.
   */
  answers?: { cache: AnswerCache; fields: ReadonlySet<string>; onHit?: () => void };
  /**
   * Root Query fields that only read (the database, the clock): a query of these alone runs
   * compiled by graphql-jit, and runs again through graphql-js when that gave any error, so that
   * errors are graphql-js's own. Every other operation runs through graphql-js only.
   */
  compiledFields?: ReadonlySet<string>;
}

/** An answer cache's key for a request, with the kept answer, or the ticket to keep the one being made. */
type CacheTurn =
  { key: string; kept: KeptAnswer; ticket?: undefined } | { key: string; kept?: undefined; ticket: Ticket };

/** The answer Apollo would give: status, headers (in Apollo's order) and body. */
interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

/**
 * Answers queries and the public mutations without Apollo's request pipeline, on the same schema,
 * with the same limits, context factory, error formatting and headers, byte for byte what Apollo
 * answers. Parsed and validated documents are kept in a bounded LRU, with their reads of
 * `compiledFields` compiled by graphql-jit (graphql-js was about a tenth of a public read's
 * JavaScript time when profiled); graphql-js runs everything else. It takes only what it is sure
 * of: a POST of JSON (or, for a query, a GET passing Apollo's CSRF rule) whose one operation is a
 * valid query, of public fields only unless the caller's token verifies, or a valid mutation of
 * public fields only (signing in goes through here: Apollo's pipeline was a sixth of a sign-in's
 * main-thread time); anything else (a token that does not verify, a member's mutation,
 * introspection, an invalid document, batching, extensions, unusual parameters or `Accept` headers,
 * variables that do not coerce) is left to Apollo.
 */
export class PublicExecutor {
  private readonly documents = new LRUCache<string, KeptDocument | false>({
    max: DOCUMENTS_MAX,
    maxSize: DOCUMENTS_MAX_CHARS,
    sizeCalculation: (_value, query) => Math.max(1, query.length),
  });
  private readonly rules: readonly ValidationRule[];
  /** A number for each kept document, naming it in the answer cache's keys. */
  private readonly documentIds = new WeakMap<DocumentNode, number>();
  private nextDocumentId = 0;

  constructor(private readonly options: PublicExecutorOptions) {
    this.rules = [...specifiedRules, ...requestLimits({ production: options.production }).validationRules];
  }

  /**
   * Answers the request on `reply` and returns the body to send, or undefined (having touched
   * nothing) when Apollo should answer it.
   */
  async answer(request: FastifyRequest, reply: FastifyReply): Promise<string | undefined> {
    const contentType = ANSWER_TYPES.get(request.headers.accept ?? '');
    if (contentType === undefined) return undefined;
    const operationRequest = operationRequestOf(request);
    if (!operationRequest) return undefined;
    const { query, variables, operationName } = operationRequest;
    const kept = this.documentOf(query);
    if (!kept) return undefined;
    const { document } = kept;
    const operation = getOperationAST(document, operationName);
    if (!operation) return undefined;
    const fields = this.fieldsOf(operation, request.method);
    if (fields === 'none' || (fields === 'members' && request.headers.authorization === undefined)) return undefined;
    if (operation.operation === OperationTypeNode.MUTATION && this.options.refusesMutation?.(request)) return undefined;

    const turn = this.keptAnswerOf(request, document, operation, contentType, operationRequest);
    if (turn?.kept !== undefined) {
      const { body, etag } = turn.kept;
      this.options.answers?.onHit?.();
      this.observeAndHead(request, reply, operation, contentType, { status: 200, headers: [], body }, []);
      // Made once, when the answer was kept: http/answer-headers.ts sends it rather than hash again.
      if (etag !== undefined && request.method === 'GET') void reply.header('etag', etag);
      return body;
    }
    // The text guard's refusal is Apollo's to give.
    if (unstorableTextAt(variables ?? {}) !== null || hasUnstorableLiteral(document)) return undefined;

    let contextValue: Context;
    try {
      contextValue = await this.options.context(request);
    } catch {
      // A token that does not verify (or could not be checked): Apollo gives the refusal.
      return undefined;
    }
    if (fields === 'members' && contextValue.user === null) return undefined;
    const compiled = this.compiledOf(kept, operation, operationName);
    let result: ExecutionResult | undefined;
    try {
      result = compiled ? await compiled.query(undefined, contextValue, variables) : undefined;
    } catch {
      result = undefined;
    }
    // Errors (and refused variables) are graphql-js's to word: the read is run again there.
    if (result?.errors !== undefined || result?.data === undefined) {
      result = await execute({
        schema: this.options.schema,
        document,
        contextValue,
        variableValues: variables,
        operationName,
      });
    }
    // No data: the variables did not coerce and nothing ran; Apollo answers that (400, BAD_USER_INPUT).
    if (result.data === undefined) return undefined;

    const answer = this.answerOf(result.errors, result.data, result.extensions);
    const membersRead = contextValue.loaders.membersRead;
    if (
      turn?.ticket !== undefined &&
      membersRead !== undefined &&
      answer.errors === undefined &&
      answer.status === 200 &&
      !answer.headers.length
    ) {
      this.options.answers?.cache.store(turn.ticket, turn.key, answer.body, {
        etag: strongEtag(answer.body, contentType),
        rows: membersRead,
      });
    }
    this.observeAndHead(request, reply, operation, contentType, answer, answer.errors ?? []);
    return answer.body;
  }

  /** Reports the answer to the observer and sets its status and headers on `reply`. */
  private observeAndHead(
    request: FastifyRequest,
    reply: FastifyReply,
    operation: OperationDefinitionNode,
    contentType: string,
    answer: Answer,
    errors: readonly GraphQLFormattedError[],
  ): void {
    this.options.observeAnswer?.(errors);
    for (const [name, value] of answer.headers) void reply.header(name, value);
    for (const [name, value] of this.options.responseHeaders?.(request, operation) ?? [])
      void reply.header(name, value);
    void reply.header('content-type', contentType);
    void reply.code(answer.status);
  }

  /**
   * For an anonymous query the answer cache takes: its key, with the kept answer when there is one,
   * or a ticket to keep the answer about to be made. Undefined for any other request.
   */
  private keptAnswerOf(
    request: FastifyRequest,
    document: DocumentNode,
    operation: OperationDefinitionNode,
    contentType: string,
    { variables, operationName }: OperationRequest,
  ): CacheTurn | undefined {
    const answers = this.options.answers;
    if (!answers || request.headers.authorization !== undefined) return undefined;
    if (operation.operation !== OperationTypeNode.QUERY) return undefined;
    for (const selection of operation.selectionSet.selections) {
      if (selection.kind !== Kind.FIELD) return undefined;
      const name = selection.name.value;
      if (name !== '__typename' && !answers.fields.has(name)) return undefined;
    }
    // The same document (by its number: a key short whatever the query's length), operation and
    // variables, asked for as the same type, get the same bytes.
    let id = this.documentIds.get(document);
    if (id === undefined) {
      id = this.nextDocumentId++;
      this.documentIds.set(document, id);
    }
    const key = `${String(id)} ${contentType} ${operationName ?? ''} ${JSON.stringify(variables ?? null)}`;
    const kept = answers.cache.lookup(key);
    return kept === undefined ? { key, ticket: answers.cache.ticket() } : { key, kept };
  }

  /** The parsed document when it is valid (cached either way), false when Apollo must report on it. */
  private documentOf(query: string): KeptDocument | false {
    const known = this.documents.get(query);
    if (known !== undefined) return known;
    let verdict: KeptDocument | false;
    try {
      const document = parse(query, { maxTokens: MAX_TOKENS });
      verdict =
        validate(this.options.schema, document, this.rules).length === 0 ? { document, compiled: new Map() } : false;
    } catch {
      verdict = false;
    }
    this.documents.set(query, verdict);
    return verdict;
  }

  /**
   * The operation compiled by graphql-jit (once per document and operation name, kept with the
   * document) when it is a query of `compiledFields` only; undefined when graphql-js runs it.
   */
  private compiledOf(
    kept: KeptDocument,
    operation: OperationDefinitionNode,
    operationName: string | undefined,
  ): CompiledQuery | undefined {
    const fields = this.options.compiledFields;
    if (!fields || operation.operation !== OperationTypeNode.QUERY) return undefined;
    for (const selection of operation.selectionSet.selections) {
      if (selection.kind !== Kind.FIELD) return undefined;
      const name = selection.name.value;
      if (name !== '__typename' && !fields.has(name)) return undefined;
    }
    const key = operationName ?? '';
    let compiled = kept.compiled.get(key);
    if (compiled === undefined) {
      compiled = compiledQueryOf(this.options.schema, kept.document, operationName);
      kept.compiled.set(key, compiled);
    }
    return compiled || undefined;
  }

  /**
   * What the root of an operation selects: public fields only, or members' queries too; 'none' for
   * anything this executor does not take (a subscription, a mutation by GET or of a member's
   * field, introspection, a fragment at the root).
   */
  private fieldsOf(operation: OperationDefinitionNode, method: string): 'public' | 'members' | 'none' {
    if (operation.operation === OperationTypeNode.MUTATION) {
      // Apollo refuses a mutation sent by GET (405): its answer to give.
      if (method !== 'POST') return 'none';
      const selections = operation.selectionSet.selections;
      const allPublic = selections.every(
        (selection) => selection.kind === Kind.FIELD && this.options.publicMutations.has(selection.name.value),
      );
      return allPublic ? 'public' : 'none';
    }
    if (operation.operation !== OperationTypeNode.QUERY) return 'none';
    let fields: 'public' | 'members' = 'public';
    for (const selection of operation.selectionSet.selections) {
      if (selection.kind !== Kind.FIELD) return 'none';
      const name = selection.name.value;
      if (name === '__typename' || this.options.publicFields.has(name)) continue;
      if (name.startsWith('__')) return 'none';
      fields = 'members';
    }
    return fields;
  }

  /** Apollo's error normalisation and body, field order included (errors, data, extensions). */
  private answerOf(
    errors: readonly GraphQLError[] | undefined,
    data: unknown,
    extensions: unknown,
  ): Answer & { errors: GraphQLFormattedError[] | undefined } {
    let status = 200;
    const headers: [string, string][] = [];
    const formatted = errors?.map((error) => {
      if (this.options.production) error.message = error.message.replace(SUGGESTION, SUGGESTION_MASK);
      try {
        const own: Record<string, unknown> = {
          ...error.extensions,
          code: error.extensions.code ?? ErrorCode.INTERNAL_SERVER_ERROR,
        };
        const { http } = own;
        if (isHttpHead(http)) {
          if (http.status) status = http.status;
          for (const [name, value] of http.headers ?? []) headers.push([name, value]);
          delete own.http;
        }
        return this.options.formatError({ ...error.toJSON(), extensions: own }, error);
      } catch {
        return { message: 'Internal server error', extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR } };
      }
    });
    headers.push(...rateLimitHeadersOf(formatted));
    const body = `${JSON.stringify({ errors: formatted, data, extensions })}\n`;
    return { status, headers, body, errors: formatted };
  }
}

function isHttpHead(value: unknown): value is { status?: number; headers?: Map<string, string> } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (!('status' in value) || typeof value.status === 'number') &&
    (!('headers' in value) || value.headers instanceof Map)
  );
}
