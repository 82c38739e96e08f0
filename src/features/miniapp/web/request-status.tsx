import { useEffect, useState } from "preact/hooks";
import type { Balance, RequestStatusResponse } from "../contract";
import { ApiFailure } from "./api";
import { useEnv } from "./shared";

/** How often a running request is asked about: about the chat's status edits, not faster than a thumb. */
const pollMs = 1500;

/**
 * The confirmed draft's request, as its status message in the chat says it
 * (queued, generating, done or why not), asked again until it is over; once
 * done, the way to open the result here.
 */
export function RequestStatus(props: {
  id: string;
  onOpen(resultId: string): void;
  onBalance(balance: Balance): void;
}) {
  const { api } = useEnv();
  const [shown, setShown] = useState<RequestStatusResponse>();
  const { id } = props;
  const onBalance = props.onBalance;

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = () => {
      api.request(id).then(
        (answer) => {
          if (stopped) return;
          setShown(answer);
          onBalance(answer.balance);
          if (answer.phase === "queued" || answer.phase === "generating") timer = setTimeout(ask, pollMs);
        },
        (err: unknown) => {
          // a request that is not there is not asked about again; a hiccup is
          if (stopped || (err instanceof ApiFailure && err.status === 404)) return;
          timer = setTimeout(ask, pollMs);
        },
      );
    };
    ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id, api, onBalance]);

  if (!shown) return null;
  return <RequestLine status={shown} onOpen={props.onOpen} />;
}

function RequestLine(props: { status: RequestStatusResponse; onOpen(resultId: string): void }) {
  const { w } = useEnv();
  const { status } = props;
  const resultId = status.resultId;
  return (
    <div class="request-status" data-testid="request-status" data-phase={status.phase} role="status">
      <p class={status.phase === "ended" ? "error" : "notice"}>{status.text}</p>
      {resultId !== null && (
        <button type="button" class="link" data-testid="open-result" onClick={() => props.onOpen(resultId)}>
          {w.t("open-result")}
        </button>
      )}
    </div>
  );
}
