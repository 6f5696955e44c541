import type { FastifyReply, FastifyRequest } from 'fastify';
import { factorJson, AuthFactorRecord } from '../factor-entities.js';
import { downgradeSessions, loadOwnedFactor } from '../factors.js';
import type { RouteCall } from '../route.js';
import { loadUser } from './admin.js';

/** `GET /admin/users/:id/factors`: the user's factors, verified or not. */
export async function adminListFactors(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context }: RouteCall,
): Promise<unknown> {
  const { manager } = context.dataSource;
  const user = await loadUser(request, manager);
  const factors = await manager.find(AuthFactorRecord, { where: { userId: user.id }, order: { createdAt: 'ASC' } });
  return factors.map(factorJson);
}

/** `DELETE /admin/users/:id/factors/:factorId`: removes a factor (a lost phone); its sessions fall to aal1. */
export async function adminDeleteFactor(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context }: RouteCall,
): Promise<unknown> {
  const { manager } = context.dataSource;
  const user = await loadUser(request, manager);
  const factor = await loadOwnedFactor(request, manager, user);
  await context.dataSource.transaction(async (tx) => {
    await tx.delete(AuthFactorRecord, { id: factor.id });
    await downgradeSessions(tx, factor);
  });
  return factorJson(factor);
}
