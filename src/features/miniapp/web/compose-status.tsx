import { Notice } from "./shared";
import type { Status } from "./use-composer";

/** How the last upload or Confirm went, if there is something to say. */
export function ComposeStatus(props: { status: Status }) {
  const { status } = props;
  if (!status) return null;
  return <Notice kind={status.kind} text={status.text} testid="compose-status" />;
}
