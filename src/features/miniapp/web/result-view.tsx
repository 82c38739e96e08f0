import { useEffect, useState } from "preact/hooks";
import type { PresetResponse, ResultOptions, ResultResponse } from "../contract";
import { optionLabel } from "./i18n";
import { ErrorLine, failureText, Loading, Notice, useEnv } from "./shared";

const optionOrder: Array<keyof ResultOptions> = [
  "model",
  "imageSize",
  "resolution",
  "numImages",
  "duration",
  "aspectRatio",
  "generateAudio",
  "webSearch",
  "sourceLanguage",
  "targetLanguage",
];

/**
 * One result full size, with what it was made from and the actions under a result
 * in the chat: send it again, make it again, edit it, a 4K version (of the chosen picture).
 */
export function ResultView(props: { id: string; onClose(): void; onPreset(p: PresetResponse): void }) {
  const { api, w } = useEnv();
  const [result, setResult] = useState<ResultResponse>();
  const [error, setError] = useState<unknown>();
  const [picture, setPicture] = useState(0);
  const [busy, setBusy] = useState<string>();
  const [notice, setNotice] = useState<{ kind: "ok" | "error"; text: string }>();

  const load = () => {
    setError(undefined);
    api.result(props.id).then(setResult, setError);
  };
  useEffect(load, [props.id]);

  const act = async (name: string, run: () => Promise<void>) => {
    if (busy) return;
    setBusy(name);
    setNotice(undefined);
    try {
      await run();
    } catch (err) {
      setNotice({ kind: "error", text: failureText(w, err) });
    } finally {
      setBusy(undefined);
    }
  };
  const preset = (action: "again" | "edit" | "upscale") =>
    act(action, async () => props.onPreset(await api.preset(props.id, { action, picture })));

  const photos = result?.media.filter((m) => m.kind === "photo").length ?? 0;
  return (
    <article class="result" data-testid="result-view" data-id={props.id}>
      <button type="button" class="link back" data-testid="result-back" onClick={props.onClose}>
        {w.dir === "rtl" ? "→" : "←"} {w.t("back")}
      </button>
      {!result && error === undefined && <Loading />}
      {error !== undefined && <ErrorLine error={error} onRetry={load} />}
      {result && (
        <>
          <div class={photos > 1 ? "media several" : "media"}>
            {result.media.map((m, i) => {
              if (m.kind === "photo") {
                const index = result.media.slice(0, i).filter((x) => x.kind === "photo").length;
                return (
                  <button
                    key={m.url}
                    type="button"
                    class="picture"
                    aria-pressed={photos > 1 ? index === picture : undefined}
                    data-testid="result-photo"
                    onClick={() => setPicture(index)}
                  >
                    <img src={m.url} alt={result.prompt} />
                  </button>
                );
              }
              if (m.kind === "video")
                return (
                  // biome-ignore lint/a11y/useMediaCaption: the user's own generated video has no captions to offer
                  <video
                    key={m.url}
                    src={m.url}
                    poster={m.poster}
                    controls
                    playsInline
                    data-testid="result-video"
                  />
                );
              if (m.kind === "audio")
                return (
                  // biome-ignore lint/a11y/useMediaCaption: the user's own dubbed audio has no captions to offer
                  <audio key={m.url} src={m.url} controls data-testid="result-audio" />
                );
              return (
                <a key={m.url} href={m.url} target="_blank" rel="noreferrer" data-testid="result-document">
                  📄
                </a>
              );
            })}
          </div>
          <dl class="facts">
            <div class="fact prompt">
              <dt>{w.op(result.operation)}</dt>
              <dd data-testid="result-prompt" dir="auto">
                {result.upscale ? w.t("result-upscaled") : result.prompt}
              </dd>
            </div>
            {optionOrder.map((name) => {
              const value = result.options[name];
              if (value === undefined) return null;
              return (
                <div key={name} class="fact" data-testid={`result-option-${name}`}>
                  <dt>{w.t(optionLabel[name])}</dt>
                  <dd>{optionText(w, name, value)}</dd>
                </div>
              );
            })}
            <div class="fact">
              <dt>{w.t("result-cost")}</dt>
              <dd data-testid="result-cost" data-value={result.cost}>
                {result.cost > 0 ? w.t("cost", { cost: result.cost }) : w.t("free")}
              </dd>
            </div>
            <div class="fact">
              <dt>{w.t("result-date")}</dt>
              <dd data-testid="result-date">
                <time dateTime={result.createdAt}>{w.date(result.createdAt)}</time>
              </dd>
            </div>
          </dl>
          <div class="actions">
            <button
              type="button"
              data-testid="action-resend"
              disabled={busy !== undefined}
              onClick={() =>
                act("resend", async () => {
                  await api.resend(props.id);
                  setNotice({ kind: "ok", text: w.t("resent") });
                })
              }
            >
              {w.t("action-resend")}
            </button>
            {result.actions.again && (
              <button
                type="button"
                class="secondary"
                data-testid="action-again"
                disabled={busy !== undefined}
                onClick={() => preset("again")}
              >
                {w.t("action-again")}
              </button>
            )}
            {result.actions.edit && (
              <button
                type="button"
                class="secondary"
                data-testid="action-edit"
                disabled={busy !== undefined}
                onClick={() => preset("edit")}
              >
                {w.t("action-edit")}
              </button>
            )}
            {result.actions.upscale && (
              <button
                type="button"
                class="secondary"
                data-testid="action-upscale"
                disabled={busy !== undefined}
                onClick={() => preset("upscale")}
              >
                {w.t("action-upscale")}
              </button>
            )}
          </div>
          {notice && <Notice kind={notice.kind} text={notice.text} testid="result-notice" />}
        </>
      )}
    </article>
  );
}

function optionText(
  w: ReturnType<typeof useEnv>["w"],
  name: keyof ResultOptions,
  value: string | number | boolean,
) {
  if (typeof value === "boolean") return w.t(value ? "yes" : "no");
  if (name === "duration" && typeof value === "number") return w.t("seconds", { value });
  if (name === "aspectRatio" && value === "auto") return w.t("aspect-auto");
  if ((name === "sourceLanguage" || name === "targetLanguage") && typeof value === "string")
    return w.language(value);
  return typeof value === "number" ? w.num(value) : value;
}
