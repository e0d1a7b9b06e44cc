import type { RequestContext } from '@a2a-js/sdk/server';
import { ApprovalDecision, type Logger, principalKey } from '@switchboard/agent';
import { principalOf } from '@switchboard/identity';
import { APPROVAL_DECISION_KEY, boardDeciderOf } from '@switchboard/protocol';

/** What the board delivers: the decision and the hash of the arguments it showed. */
const BoardDelivery = ApprovalDecision.omit({ decidedAt: true, decidedBy: true });
/** What a peer service hands on: its board's decision, naming the operator who took it. */
const HandedOn = ApprovalDecision.omit({ decidedAt: true });

/** The reply to a decision sent in a message that was not taken. */
export const DECIDE_ON_THE_BOARD =
  'An approval decision in your message was ignored: approvals are decided on the approval board, not in a message. ' +
  'An operator decides with `switchboard approvals approve <id>` (or `deny <id>`), or POST /admin/approvals/<id>/approve (or /deny).';

/**
 * The decisions a message's data parts carry that its task takes: the board's own delivery (in
 * process, recorded as the operator who decided there), or a trusted peer service handing on its
 * board's decision (recorded as that operator via the service). Any other is refused, logged and
 * counted, and the approval stays pending: approvals are decided on the board, not in a message.
 */
export function decisionsIn(
  data: unknown[],
  requestContext: RequestContext,
  { trusted, logger }: { trusted: boolean; logger: Pick<Logger, 'warn'> },
): { accepted: ApprovalDecision[]; refused: number } {
  const { context } = requestContext;
  const board = boardDeciderOf(context);
  const from = principalOf(context.user);
  const peerService = trusted && from !== undefined && (from.kind === 'service' || from.via.length > 0);
  const accepted: ApprovalDecision[] = [];
  let refused = 0;
  for (const item of data) {
    if (!item || typeof item !== 'object' || !(APPROVAL_DECISION_KEY in item)) continue;
    const sent = (item as Record<string, unknown>)[APPROVAL_DECISION_KEY];
    const now = new Date().toISOString();
    if (board) {
      const parsed = BoardDelivery.safeParse(sent);
      if (parsed.success) {
        accepted.push({ ...parsed.data, decidedBy: board.id, decidedAt: now });
        continue;
      }
    } else if (peerService) {
      const parsed = HandedOn.safeParse(sent);
      if (parsed.success) {
        // A relayed decision is the relaying service's word (the last hop), not the end user's.
        const service = from.via.at(-1) ?? from.id;
        const { decidedBy: operator, ...decision } = parsed.data;
        accepted.push({
          ...decision,
          decidedBy: operator === service ? service : `${operator} (via ${service})`,
          decidedAt: now,
        });
        continue;
      }
    }
    refused++;
    logger.warn(
      {
        taskId: requestContext.taskId,
        caller: from ? principalKey(from) : context.user?.userName,
        approvalId: (sent as { approvalId?: unknown } | undefined)?.approvalId,
      },
      'a decision sent in a message was ignored: approvals are decided on the board',
    );
  }
  return { accepted, refused };
}
