import {
  type Activity,
  type OrderFold,
  type OrderType,
  recalculate,
  seenAllIn,
  seenForEditIn,
  type Values,
  type Write,
  type WriteIssue,
  writeIssue,
} from '@vers/domain';
import { type Change, changeRows } from './order-results.ts';
import { storeChangesOffMainThread } from './save-client.ts';
import type { VersDb } from './versdb.ts';

/*
 * An edit in the order editor, as one plain step (docs/requirements/sync.md#data-flow-record): the writes are checked
 * against the field catalogue by the same domain function the server uses, the good ones are stored with what their
 * author had seen of each field, and the domain's recalculation follows. The editor's inputs only normalise what was
 * typed; whether a value fits is decided here, at the keyboard, exactly as the server will decide it.
 */

/** A write the field catalogue refuses: nothing of the edit is stored. */
export interface EditProblem {
  key: string;
  /** Why the write does not fit (the domain's `writeIssue`, which the server asks too). */
  issue: WriteIssue;
}

/** How an edit came about, for what its author had seen of each field (the conflict rule). */
export interface EditContext {
  /** Keys whose field showed an older value when the edit began (a pull arrived while the user typed). */
  stale?: readonly string[];
  /** A decision on a conflict: the user has seen every value of the field this device holds. */
  decision?: boolean;
  /**
   * The ids of the writes' changes, in order, where they must be known ones: a wheelset swap whose server call may
   * have landed takes the ids the server gave it (domain `wheelsetSwapActivityId`), so it is stored there once.
   */
  ids?: readonly string[];
}

export interface Edit extends EditContext {
  orderId: string;
  type: OrderType;
  writes: readonly Write[];
  /** The fold of the order's rows on this device, as the editor showed it (for what each change has seen). */
  fold: OrderFold;
  /** The values the editor showed (the fold's, with an order created offline its creation values). */
  values: Values;
  /** The last name written beside values when the workshop keeps a protocol. */
  modifier?: string | undefined;
}

export interface EditResult {
  stored: Activity[];
  /** When the edit's transaction committed, in this page's clock (performance.now()). */
  committed: number;
}

/** What the field catalogue says about the writes of an edit; empty when all fit. Asked before anything is stored. */
export function editProblems(type: OrderType, writes: readonly Write[]): EditProblem[] {
  return writes.flatMap((write) => {
    const issue = writeIssue(type, write.key, write.value);
    return issue ? [{ key: write.key, issue }] : [];
  });
}

/**
 * Stores an edit whose writes all fit (the caller asked `editProblems` first) and the recalculations they call for, each
 * with what its author had seen of the field, in one transaction: the edit lands whole or not at all. What was seen
 * comes from the editor's fold, so an edit reads nothing but the order's waiting rows (for the next local counter).
 * The screen never waits for the network. The transaction runs on the save worker where one runs (save-client.ts).
 */
export async function recordEdit(db: VersDb, edit: Edit): Promise<EditResult> {
  const seenFor = (key: string, context: EditContext) =>
    context.decision ? seenAllIn(edit.fold, key) : seenForEditIn(edit.fold, key, !context.stale?.includes(key));
  const change = (write: Write, context: EditContext, id?: string): Change => ({
    ...(id ? { id } : {}),
    orderId: edit.orderId,
    key: write.key,
    value: write.value,
    seen: seenFor(write.key, context),
    ...(edit.modifier ? { modifier: edit.modifier } : {}),
  });
  const changes = edit.writes.map((write, index) => change(write, edit, edit.ids?.[index]));
  const after: Record<string, unknown> = { ...edit.values };
  for (const write of edit.writes) after[write.key] = write.value === null ? undefined : { value: write.value };
  for (const write of edit.writes) {
    if (write.value === null) continue;
    const result = recalculate(edit.type, after, write.key);
    // A calculation still missing inputs stays as it is; the editor tells when the user leaves its group.
    if (result.kind === 'write') changes.push(change(result.write, {}));
  }
  const started = performance.now();
  // On the save worker where one runs (save-client.ts): the commit does not wait for this thread's next frame.
  const { stored, committed } = await storeChangesOffMainThread(db, changeRows(db, changes));
  // User Timing, visible in the browser's performance tools: from the rows' making to the committed transaction.
  performance.measure('vers:save', { start: started, end: committed, detail: { rows: stored.length } });
  return { stored, committed };
}
