import type { Status } from "./use-composer";

/** How the last upload or Confirm went, if there is something to say. */
export function ComposeStatus(props: { status: Status }) {
  const { status } = props;
  if (!status) return null;
  return (
    <p
      class={status.kind === "ok" ? "notice" : "error"}
      role="status"
      data-testid="compose-status"
      data-kind={status.kind}
    >
      {status.text}
    </p>
  );
}
