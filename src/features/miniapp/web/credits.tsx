import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { Balance, BuyRequest, CreditsResponse, Pack, PlanOffer } from "../contract";
import { ErrorLine, failureText, Loading, Notice, Num, useEnv } from "./shared";
import { telegram } from "./telegram";

/** After a paid invoice the credits come with Telegram's successful_payment update: look a few times. */
const afterPaymentChecks = [500, 1000, 2000, 4000, 8000];

/**
 * Balance, held credits, the running plan, the latest movements, the packs and
 * the monthly plans: Buy and Subscribe open a Stars invoice in Telegram. The balance shown is the page's one (`balance`), which
 * each load here refreshes.
 */
export function Credits(props: { balance: Balance | undefined; onBalance(balance: Balance): void }) {
  const { api, w } = useEnv();
  const [data, setData] = useState<CreditsResponse>();
  const [error, setError] = useState<unknown>();
  const [buying, setBuying] = useState<string>();
  const [status, setStatus] = useState<{ kind: "ok" | "error"; text: string }>();
  const onBalance = useRef(props.onBalance);
  onBalance.current = props.onBalance;

  const load = useCallback(
    () =>
      api.credits().then(
        (answer) => {
          setData(answer);
          setError(undefined);
          onBalance.current(answer.balance);
          return answer;
        },
        (err: unknown) => {
          setError(err);
          return undefined;
        },
      ),
    [api],
  );
  useEffect(() => {
    void load();
  }, [load]);

  useEffect(
    () =>
      telegram.onInvoiceClosed(({ status: closed }) => {
        setBuying(undefined);
        if (closed === "paid") {
          setStatus({ kind: "ok", text: w.t("buy-paid") });
          const before = data?.balance.available;
          const timers = afterPaymentChecks.map((ms) =>
            setTimeout(async () => {
              const answer = await load();
              if (answer && answer.balance.available !== before) timers.forEach(clearTimeout);
            }, ms),
          );
        } else if (closed === "cancelled") setStatus({ kind: "ok", text: w.t("buy-cancelled") });
        else setStatus({ kind: "error", text: w.t("buy-failed") });
      }),
    [load, data, w],
  );

  const buy = async (wanted: BuyRequest) => {
    if (buying) return;
    setBuying("packId" in wanted ? wanted.packId : `plan:${wanted.planId}`);
    setStatus(undefined);
    try {
      const { invoiceLink } = await api.buy(wanted);
      if (!telegram.openInvoice(invoiceLink)) {
        setBuying(undefined);
        setStatus({ kind: "error", text: w.t("buy-no-telegram") });
      }
    } catch (err) {
      setBuying(undefined);
      setStatus({ kind: "error", text: failureText(w, err) });
    }
  };

  if (!data) return error === undefined ? <Loading /> : <ErrorLine error={error} onRetry={load} />;
  const balance = props.balance ?? data.balance;
  return (
    <section class="credits" data-testid="credits">
      <div class="balance">
        <div>
          <span class="big">
            <Num value={balance.available} testid="balance-available" />
          </span>
          <span class="hint">{w.t("balance-available")}</span>
        </div>
        <div>
          <span class="big">
            <Num value={balance.held} testid="balance-held" />
          </span>
          <span class="hint">{w.t("balance-held")}</span>
        </div>
      </div>
      {data.plan && (
        <p
          class="plan"
          data-testid="active-plan"
          data-plan={data.plan.id}
          data-renews={String(data.plan.renews)}
          dir="auto"
        >
          {data.plan.text}
        </p>
      )}

      <h2>{w.t("packs")}</h2>
      {data.packs.length === 0 && <p class="hint">{w.t("buy-off")}</p>}
      <ul class="packs">
        {data.packs.map((pack) => (
          <PackItem key={pack.id} pack={pack} busy={buying} onBuy={(packId) => buy({ packId })} />
        ))}
      </ul>
      {/* a renewing plan is not sold again (the checkout refuses a second subscription): cancel it in the chat's /plans */}
      {data.plans.length > 0 && !data.plan?.renews && (
        <>
          <h2>{w.t("plans")}</h2>
          <ul class="packs">
            {data.plans.map((plan) => (
              <PlanItem key={plan.id} plan={plan} busy={buying} onSubscribe={(planId) => buy({ planId })} />
            ))}
          </ul>
        </>
      )}
      {status && <Notice kind={status.kind} text={status.text} testid="buy-status" />}

      <h2>{w.t("movements")}</h2>
      {data.entries.length === 0 ? (
        <p class="hint" data-testid="movements-empty">
          {w.t("movements-empty")}
        </p>
      ) : (
        <ul class="movements" data-testid="movements">
          {data.entries.map((e, i) => (
            <li key={`${e.at}-${i}`} data-testid="movement" data-label={e.label}>
              <span dir="auto">{e.text}</span>
              <time class="hint" dateTime={e.at}>
                {w.date(e.at)}
              </time>
            </li>
          ))}
        </ul>
      )}
      <EraseMyData />
    </section>
  );
}

/** "Delete my data": asked once more, then the server's words for what was erased and what was kept. */
function EraseMyData() {
  const { api, w } = useEnv();
  const [step, setStep] = useState<"idle" | "asking" | "working">("idle");
  const [status, setStatus] = useState<{ kind: "ok" | "error"; text: string }>();
  const erase = async () => {
    setStep("working");
    try {
      const { message } = await api.erase();
      // no reload here: every call of the page registers the caller (name included) again
      setStatus({ kind: "ok", text: message });
    } catch (err) {
      setStatus({ kind: "error", text: failureText(w, err) });
    }
    setStep("idle");
  };
  return (
    <div class="privacy" data-testid="privacy">
      <h2>{w.t("privacy")}</h2>
      {step === "idle" ? (
        <button type="button" class="link" data-testid="erase" onClick={() => setStep("asking")}>
          {w.t("erase-button")}
        </button>
      ) : (
        <>
          <p dir="auto" data-testid="erase-ask">
            {w.t("erase-ask")}
          </p>
          <button type="button" data-testid="erase-confirm" disabled={step === "working"} onClick={erase}>
            {w.t(step === "working" ? "erase-working" : "erase-confirm")}
          </button>
          <button
            type="button"
            class="link"
            data-testid="erase-keep"
            disabled={step === "working"}
            onClick={() => setStep("idle")}
          >
            {w.t("erase-keep")}
          </button>
        </>
      )}
      {status && <Notice kind={status.kind} text={status.text} testid="erase-status" />}
    </div>
  );
}

function PackItem(props: { pack: Pack; busy: string | undefined; onBuy(packId: string): void }) {
  const { w } = useEnv();
  const { pack } = props;
  return (
    <li data-testid="pack" data-pack={pack.id} data-credits={pack.credits + pack.bonus}>
      <span>
        {w.t("pack", { credits: pack.credits })}
        {pack.bonus > 0 && <span class="bonus"> {w.t("pack-bonus", { bonus: pack.bonus })}</span>}
      </span>
      <button
        type="button"
        class="primary"
        data-testid={`buy-${pack.id}`}
        disabled={props.busy !== undefined}
        aria-busy={props.busy === pack.id}
        onClick={() => props.onBuy(pack.id)}
      >
        {w.t("pack-buy", { stars: pack.stars })}
      </button>
    </li>
  );
}

function PlanItem(props: { plan: PlanOffer; busy: string | undefined; onSubscribe(planId: string): void }) {
  const { w } = useEnv();
  const { plan } = props;
  return (
    <li data-testid="plan" data-plan={plan.id} data-credits={plan.credits}>
      <span dir="auto">{plan.text}</span>
      <button
        type="button"
        class="primary"
        data-testid={`subscribe-${plan.id}`}
        disabled={props.busy !== undefined}
        aria-busy={props.busy === `plan:${plan.id}`}
        onClick={() => props.onSubscribe(plan.id)}
      >
        {w.t("plan-subscribe", { stars: plan.stars })}
      </button>
    </li>
  );
}
