import { z } from 'zod';
import type { IdentityContext } from '../context.js';
import { ApiError, badRequest, unprocessable, validationFailed } from '../errors.js';
import { AuthFlowStateRecord } from '../flow-state.entity.js';
import { findFlowByCode, verifierMatches } from '../flow-state.js';
import { text } from '../schemas.js';
import type { AccessTokenResponse, ClientInfo } from '../sessions.js';
import { issueSession } from '../sessions.js';

export const pkceBody = z.object({ auth_code: text, code_verifier: text });

const flowNotFound = (): ApiError =>
  new ApiError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found');

/**
 * `POST /token?grant_type=pkce`: exchanges the code a followed link handed out, with the verifier
 * of the challenge sent when the link was asked for, for a session signed in with the flow's method
 * (`magiclink`, `recovery`, `email/signup`, …). A code works once, within the lifetime of emailed
 * links (`AUTH_OTP_EXP`, counted from the request that mailed it).
 */
export async function pkceGrant(
  context: IdentityContext,
  body: z.infer<typeof pkceBody>,
  client: ClientInfo,
): Promise<AccessTokenResponse> {
  if (body.auth_code === '' || body.code_verifier === '') {
    throw validationFailed('invalid request: both auth code and code verifier should be non-empty');
  }
  const flow = await findFlowByCode(context.dataSource.manager, body.auth_code);
  if (!flow?.authCodeIssuedAt) throw flowNotFound();
  if (flow.createdAt.getTime() + context.settings.otpExp * 1000 < Date.now()) {
    throw unprocessable('flow_state_expired', 'invalid flow state, flow state has expired');
  }
  if (!verifierMatches(flow, body.code_verifier)) {
    throw badRequest('bad_code_verifier', 'code challenge does not match previously saved code verifier');
  }
  return context.dataSource.transaction(async (manager) => {
    // Deleting the flow is what spends the code: of two exchanges at once, only one deletes it.
    const spent = await manager.delete(AuthFlowStateRecord, { id: flow.id });
    if (spent.affected !== 1) throw flowNotFound();
    return issueSession(context, manager, flow.userId, flow.authenticationMethod, client);
  });
}
