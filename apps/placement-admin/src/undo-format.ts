/** The plan as an operator reads it in a terminal: one block per stream, then what --apply would do. */
export function formatPlan(plan: any): string[] {
  const lines: string[] = [];
  const target = plan.kind === 'revert' ? `revert of request ${plan.reverted_request_id}` : `restore to ${plan.as_of}`;
  lines.push(`${target}: ${plan.status}${plan.applied ? ', applied' : ''} (plan hash ${plan.plan_hash})`);
  for (const stream of plan.streams) {
    if (stream.events.length === 0 && stream.problems.length === 0) {
      lines.push(`  ${stream.stream}: as it was, nothing to append`);
      continue;
    }
    lines.push(`  ${stream.stream}:`);
    lines.push(`    now:  ${JSON.stringify(stream.now)}`);
    if (stream.then) lines.push(`    then: ${JSON.stringify(stream.then)}`);
    for (const event of stream.events) lines.push(`    + ${event.type} ${JSON.stringify(event.data)}`);
    for (const problem of stream.problems) lines.push(`    REFUSED: ${problem}`);
  }
  for (const write of plan.conflicts) {
    lines.push(`  CONFLICT: ${write.stream} revision ${write.revision} (${write.type}) by request ${write.request_id}, user ${write.user_id}, at ${write.time}`);
  }
  for (const write of plan.forced) lines.push(`  forced: ${write.stream} revision ${write.revision} by request ${write.request_id} is taken back too`);
  if (plan.applied) lines.push(`applied as request ${plan.request_id}`);
  else if (plan.status === 'ready') lines.push('dry run: nothing appended; --apply appends exactly this plan');
  return lines;
}
