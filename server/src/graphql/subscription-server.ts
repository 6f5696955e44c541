import websocket from '@fastify/websocket';
import type { WebSocket } from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DocumentNode, GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { getOperationAST, GraphQLError, OperationTypeNode, parse, specifiedRules, validate } from 'graphql';
import type { Context as SocketContext } from 'graphql-ws';
import { CloseCode, makeServer } from 'graphql-ws';
import type { SubscriptionSettings } from '../config/subscriptions.js';
import type { Live } from '../kernel/live.js';
import type { AuthUser, Context, Loaders } from './context.js';
import { appError, ErrorCode } from './errors.js';
import { MAX_TOKENS, requestLimits } from './limits.js';

declare module '../kernel/live.js' {
  interface LiveTopics {
    /**
     * Some of the member's sessions ended (sign-out, password change, deletion): each of their open
     * connections checks its token again and closes if its session was one of them.
     */
    sessionsEnded: Record<string, never>;
  }
}

/**
 * Close codes besides graphql-ws's own (4400 bad message, 4403 forbidden, 4408 no connection_init
 * in time, 4409 duplicate id, 4429 a second connection_init) and WebSocket's (1009 message too
 * large), all in the README.
 */
export const SubscriptionClose = {
  /** The access token in connection_init was refused, or the session it belongs to has ended. */
  unauthorized: 4401,
  /** Too many connections open from this address, or for this member. */
  tooManyConnections: 4029,
} as const;

export interface SubscriptionServerOptions {
  schema: GraphQLSchema;
  settings: SubscriptionSettings;
  production: boolean;
  live: Live;
  /** The caller an Authorization header names, as for HTTP (kernel.authenticate). */
  authenticate: (header: string | undefined) => Promise<AuthUser | null>;
  loaders: () => Loaders;
  /** The same masking as HTTP answers (graphql/apollo.ts). */
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
}

/** What one connection knows of its caller: set at connection_init. */
interface Extra {
  socket: WebSocket;
  request: FastifyRequest;
  user: AuthUser | null;
}

/** The access token of connection_init's payload: `authorization: 'Bearer …'` or `accessToken`. */
function authorizationOf(params: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!params) return undefined;
  if (typeof params.authorization === 'string') return params.authorization;
  if (typeof params.Authorization === 'string') return params.Authorization;
  if (typeof params.accessToken === 'string' && params.accessToken !== '') return `Bearer ${params.accessToken}`;
  return undefined;
}

/** Open connections by a key (an address, a member), bounded. */
class Counts {
  private readonly open = new Map<string, number>();
  constructor(private readonly max: number) {}
  take(key: string): boolean {
    const count = this.open.get(key) ?? 0;
    if (count >= this.max) return false;
    this.open.set(key, count + 1);
    return true;
  }
  give(key: string): void {
    const count = (this.open.get(key) ?? 1) - 1;
    if (count > 0) this.open.set(key, count);
    else this.open.delete(key);
  }
}

const requestError = (code: string, message: string): GraphQLError =>
  new GraphQLError(message, { extensions: { code } });

/**
 * GraphQL subscriptions over the graphql-ws protocol on the WebSocket of `GET /graphql`, on the same
 * schema, limits and errors as queries. Registers the WebSocket plugin and answers its upgrade;
 * returns the route's `wsHandler`.
 */
export async function subscriptionHandler(
  app: FastifyInstance,
  options: SubscriptionServerOptions,
): Promise<(socket: WebSocket, request: FastifyRequest) => void> {
  const { settings, schema, live } = options;
  const log = app.log;
  // ws closes a connection whose message is larger with 1009 (message too big).
  await app.register(websocket, { options: { maxPayload: settings.maxMessageBytes } });
  const limits = requestLimits({ production: options.production });
  const rules = [...specifiedRules, ...limits.validationRules];
  const byAddress = new Counts(settings.connectionsPerAddress);
  const byMember = new Counts(settings.connectionsPerMember);

  /** Checks the connection's token again; closes it when its session has ended or the token lapsed. */
  const recheck = async (extra: Extra): Promise<void> => {
    if (!extra.user) return;
    try {
      await options.authenticate(`Bearer ${extra.user.accessToken}`);
    } catch (error) {
      if (error instanceof GraphQLError && error.extensions.code === ErrorCode.UNAUTHENTICATED) {
        extra.socket.close(SubscriptionClose.unauthorized, 'Session ended');
      }
    }
  };

  const server = makeServer<Record<string, unknown> | undefined, Extra>({
    schema,
    connectionInitWaitTimeout: 10_000,
    onConnect: async (ctx: SocketContext<Record<string, unknown> | undefined, Extra>) => {
      const { extra } = ctx;
      let user: AuthUser | null;
      try {
        user = await options.authenticate(authorizationOf(ctx.connectionParams));
      } catch {
        extra.socket.close(SubscriptionClose.unauthorized, 'Unauthorized');
        return false;
      }
      if (user) {
        if (!byMember.take(user.id)) {
          extra.socket.close(SubscriptionClose.tooManyConnections, 'Too many connections for this member');
          return false;
        }
        const uid = user.id;
        const stop = new AbortController();
        extra.socket.once('close', () => {
          byMember.give(uid);
          stop.abort();
        });
        void (async () => {
          for await (const _ended of live.subscribe('sessionsEnded', uid, stop.signal)) await recheck(extra);
        })().catch((error: unknown) => {
          log.warn({ err: error }, 'session watch of a subscription connection failed');
        });
      }
      extra.user = user;
      return true;
    },
    onSubscribe: (ctx, _id, payload) => {
      if (Object.keys(ctx.subscriptions).length > settings.perConnection) {
        return [
          appError(
            ErrorCode.LIMIT_REACHED,
            `At most ${settings.perConnection} subscriptions at once on one connection.`,
          ),
        ];
      }
      let document: DocumentNode;
      try {
        document = parse(payload.query, { maxTokens: MAX_TOKENS });
      } catch (error) {
        return [requestError('GRAPHQL_PARSE_FAILED', error instanceof Error ? error.message : 'Syntax error')];
      }
      const problems = validate(schema, document, rules);
      if (problems.length > 0) {
        return problems.map((problem) => requestError('GRAPHQL_VALIDATION_FAILED', problem.message));
      }
      const operation = getOperationAST(document, payload.operationName);
      if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) {
        return [
          requestError(
            'BAD_REQUEST',
            'Only subscriptions are sent over WebSocket; send queries and mutations over HTTP.',
          ),
        ];
      }
      const { extra } = ctx;
      const contextValue: Context = {
        user: extra.user,
        loaders: options.loaders(),
        log: extra.request.log,
        clientIp: extra.request.ip,
      };
      return {
        schema,
        document,
        operationName: payload.operationName,
        variableValues: payload.variables,
        contextValue,
      };
    },
    onNext: (_ctx, _id, _payload, _args, result) =>
      result.errors
        ? { ...result, errors: result.errors.map((error) => options.formatError(error.toJSON(), error)) }
        : undefined,
    onError: (_ctx, _id, _payload, errors) => errors.map((error) => options.formatError(error.toJSON(), error)),
  });

  return function handle(socket, request) {
    const address = request.ip;
    if (!byAddress.take(address)) {
      socket.close(SubscriptionClose.tooManyConnections, 'Too many connections from this address');
      return;
    }
    const extra: Extra = { socket, request, user: null };
    // A ping every `pingMs`; no pong by the next one closes the connection (a peer gone away). The
    // same tick checks the member's token again, for sessions ended where no event was published.
    let answered = true;
    socket.on('pong', () => {
      answered = true;
    });
    const ticks = setInterval(() => {
      if (!answered) {
        socket.terminate();
        return;
      }
      answered = false;
      socket.ping();
      void recheck(extra);
    }, settings.pingMs);
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) {
              resolve();
              return;
            }
            socket.send(data, (error) => {
              if (error) reject(error);
              else resolve();
            });
          }),
        close: (code, reason) => {
          socket.close(code, reason);
        },
        onMessage: (receive) =>
          socket.on('message', (data: Buffer) => {
            receive(String(data)).catch((error: unknown) => {
              request.log.warn({ err: error }, 'a subscription message could not be handled');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            });
          }),
      },
      extra,
    );
    socket.once('close', (code: number, reason: Buffer) => {
      clearInterval(ticks);
      byAddress.give(address);
      void closed(code, String(reason));
    });
  };
}
