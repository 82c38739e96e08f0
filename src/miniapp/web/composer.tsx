import { useEffect, useRef, useState } from "preact/hooks";
import {
  allowedDurations,
  defaultDubTarget,
  defaultImageModel,
  defaultImageSize,
  defaultVideoModel,
  dubbingLanguages,
  type ImageModel,
  imageModelInfo,
  imageModels,
  imageSizes,
  isImageModel,
  isVideoModel,
  limits,
  operations,
  type VideoModel,
  videoModelIds,
  videoModels,
} from "../../media/catalog";
import type {
  AppInput,
  AppOperation,
  Balance,
  ComposeRequest,
  PresetResponse,
  QuoteRequest,
  QuoteResponse,
} from "../contract";
import { ApiFailure } from "./api";
import type { Key, Words } from "./i18n";
import { failureText, Num, newKey, useEnv } from "./shared";

interface Attached {
  input: AppInput;
  kind: "photo" | "audio" | "video";
  name: string;
  /** a blob: URL of a file picked on this device, or the result's picture */
  preview?: string | undefined;
}

interface Draft {
  operation: AppOperation;
  prompt: string;
  /** a 4K version: the prompt is the service's, not shown */
  upscale: boolean;
  imageModel: ImageModel;
  imageSize: string;
  imageResolution: string | undefined;
  numImages: number;
  videoModel: VideoModel;
  duration: number;
  videoResolution: string;
  aspectRatio: string;
  generateAudio: boolean;
  webSearch: boolean;
  images: Attached[];
  source: Attached | undefined;
  targetLanguage: string;
  sourceLanguage: string;
}

/** Keeps what still applies to the models and fills the rest with their defaults, as the chat's pickers do. */
function fitted(d: Draft): Draft {
  const image = imageModelInfo[d.imageModel];
  const video = videoModels[d.videoModel];
  const durations = allowedDurations(d.videoModel);
  return {
    ...d,
    imageResolution:
      image.qualities.length === 0
        ? undefined
        : (image.qualities.find((q) => q === d.imageResolution) ?? image.qualities[0]),
    numImages: image.multipleOutputs ? d.numImages : 1,
    duration: durations.includes(d.duration) ? d.duration : video.defaultDuration,
    videoResolution: (video.resolutions as readonly string[]).includes(d.videoResolution)
      ? d.videoResolution
      : video.defaultResolution,
    aspectRatio: (video.aspectRatios as readonly string[]).includes(d.aspectRatio)
      ? d.aspectRatio
      : video.defaultAspectRatio,
    generateAudio: video.audio && d.generateAudio,
    webSearch: video.webSearch && d.webSearch,
  };
}

function initialDraft(lang: string): Draft {
  const video = videoModels[defaultVideoModel];
  return fitted({
    operation: "image",
    prompt: "",
    upscale: false,
    imageModel: defaultImageModel,
    imageSize: defaultImageSize,
    imageResolution: undefined,
    numImages: 1,
    videoModel: defaultVideoModel,
    duration: video.defaultDuration,
    videoResolution: video.defaultResolution,
    aspectRatio: video.defaultAspectRatio,
    generateAudio: false,
    webSearch: false,
    images: [],
    source: undefined,
    targetLanguage: defaultDubTarget(lang),
    sourceLanguage: "auto",
  });
}

function withPreset(d: Draft, p: PresetResponse): Draft {
  const r = p.request;
  const attached = (input: AppInput): Attached => ({
    input,
    kind: "photo",
    name: "",
    preview: input.url,
  });
  const next: Draft = {
    ...d,
    operation: p.operation,
    upscale: p.upscale,
    prompt: r.prompt ?? "",
    images: r.images ? r.images.map(attached) : [],
    source: r.source ? { ...attached(r.source), kind: "video" } : undefined,
  };
  if (r.model && isImageModel(r.model)) next.imageModel = r.model;
  if (r.model && isVideoModel(r.model)) next.videoModel = r.model;
  if (r.imageSize) next.imageSize = r.imageSize;
  if (r.resolution) {
    next.imageResolution = r.resolution;
    next.videoResolution = r.resolution;
  }
  if (r.numImages) next.numImages = r.numImages;
  if (r.duration) next.duration = r.duration;
  if (r.aspectRatio) next.aspectRatio = r.aspectRatio;
  if (r.generateAudio !== undefined) next.generateAudio = r.generateAudio;
  if (r.webSearch !== undefined) next.webSearch = r.webSearch;
  if (r.targetLanguage) next.targetLanguage = r.targetLanguage;
  if (r.sourceLanguage) next.sourceLanguage = r.sourceLanguage;
  return fitted(next);
}

function requestOf(d: Draft): ComposeRequest {
  const image = {
    prompt: d.prompt,
    model: d.imageModel,
    imageSize: d.imageSize,
    ...(d.imageResolution ? { resolution: d.imageResolution } : {}),
    numImages: d.numImages,
  };
  switch (d.operation) {
    case "image":
      return { operation: "image", ...image };
    case "edit":
      return { operation: "edit", ...image, images: d.images.map((a) => a.input) };
    case "video":
      return {
        operation: "video",
        prompt: d.prompt,
        model: d.videoModel,
        duration: d.duration,
        resolution: d.videoResolution,
        aspectRatio: d.aspectRatio,
        ...(videoModels[d.videoModel].audio ? { generateAudio: d.generateAudio } : {}),
        ...(videoModels[d.videoModel].webSearch ? { webSearch: d.webSearch } : {}),
      };
    case "dub":
      return {
        operation: "dub",
        // checked by `missing` before it is sent
        source: d.source?.input ?? { kind: "upload", id: "-" },
        targetLanguage: d.targetLanguage,
        sourceLanguage: d.sourceLanguage,
      };
  }
}

/** Only what the price depends on: the quote is asked again when one of these changes. */
function pricedOf(d: Draft): QuoteRequest["request"] {
  switch (d.operation) {
    case "image":
    case "edit":
      return {
        operation: d.operation,
        model: d.imageModel,
        numImages: d.numImages,
        ...(d.imageResolution ? { resolution: d.imageResolution } : {}),
      };
    case "video":
      return { operation: "video", model: d.videoModel, resolution: d.videoResolution, duration: d.duration };
    case "dub":
      return d.source ? { operation: "dub", source: d.source.input } : { operation: "dub" };
  }
}

/** What must be added before Confirm can work, in words; undefined: nothing. */
function missing(d: Draft): Key | undefined {
  if ((d.operation === "image" || d.operation === "video" || d.operation === "edit") && !d.upscale)
    if (d.prompt.trim() === "") return "need-prompt";
  if (d.operation === "edit" && d.images.length === 0) return "need-pictures";
  if (d.operation === "dub" && !d.source) return "need-source";
  return undefined;
}

type Status = { kind: "ok" | "error"; text: string } | undefined;

/**
 * The four operations with the chat's options and limits (one catalog), the live
 * price from the server's one quote function, files from the device for edit and
 * dubbing, and Confirm.
 */
export function Composer(props: {
  preset: PresetResponse | undefined;
  onPresetUsed(): void;
  balance: Balance | undefined;
  onSpent(): void;
  onBuy(): void;
}) {
  const { api, w } = useEnv();
  const [draft, setDraft] = useState(() => initialDraft(w.lang));
  const [quote, setQuote] = useState<QuoteResponse>();
  const [quoting, setQuoting] = useState(false);
  const [uploading, setUploading] = useState(0);
  const [running, setRunning] = useState(false);
  const [status, setStatus] = useState<Status>();
  /** set synchronously: a second press before the page re-renders still finds it */
  const inFlight = useRef(false);
  /** the key of a press that got no answer: pressing again retries it rather than making another */
  const unanswered = useRef<string | undefined>(undefined);

  const update = (patch: Partial<Draft>) => {
    unanswered.current = undefined;
    setStatus(undefined);
    setDraft((d) => fitted({ ...d, ...patch }));
  };

  useEffect(() => {
    if (!props.preset) return;
    setDraft((d) => withPreset(d, props.preset!));
    unanswered.current = undefined;
    setStatus(undefined);
    props.onPresetUsed();
  }, [props.preset]);

  const priced = JSON.stringify(pricedOf(draft));
  useEffect(() => {
    let stale = false;
    setQuoting(true);
    const timer = setTimeout(() => {
      api.quote(JSON.parse(priced) as QuoteRequest["request"]).then(
        (answer) => {
          if (stale) return;
          setQuote(answer);
          setQuoting(false);
        },
        () => {
          if (stale) return;
          setQuote(undefined);
          setQuoting(false);
        },
      );
    }, 200);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [priced, api]);

  const attach = async (files: FileList | null, into: "images" | "source") => {
    if (!files) return;
    const picked =
      into === "images"
        ? [...files].slice(0, limits.editMaxImageUrls - draft.images.length)
        : [...files].slice(0, 1);
    setUploading((n) => n + picked.length);
    for (const file of picked) {
      try {
        const answer = await api.upload(file);
        const item: Attached = {
          input: answer.input,
          kind: answer.media,
          name: file.name,
          preview: URL.createObjectURL(file),
        };
        if (into === "images")
          setDraft((d) => ({ ...d, images: [...d.images, item].slice(0, limits.editMaxImageUrls) }));
        else setDraft((d) => ({ ...d, source: item }));
        unanswered.current = undefined;
        setStatus(undefined);
      } catch (err) {
        setStatus({ kind: "error", text: failureText(w, err) });
      } finally {
        setUploading((n) => n - 1);
      }
    }
  };

  const need = missing(draft);
  const price = quote?.credits ?? null;
  const canConfirm = !running && uploading === 0 && !need && !quoting && price !== null;

  const confirm = async () => {
    if (inFlight.current || !canConfirm) return;
    inFlight.current = true;
    setRunning(true);
    setStatus(undefined);
    const key = unanswered.current ?? newKey();
    unanswered.current = key;
    try {
      const answer = await api.generate({
        key,
        request: requestOf(draft),
        expectedPrice: price ?? undefined,
      });
      unanswered.current = undefined;
      setStatus({ kind: "ok", text: w.t(answer.created ? "started" : "already-started") });
      props.onSpent();
    } catch (err) {
      // no answer at all: the generation may exist; the next press sends the same key
      if (!(err instanceof ApiFailure && err.status === 0)) unanswered.current = undefined;
      if (err instanceof ApiFailure && err.body?.error === "price_changed") setQuote(undefined);
      setStatus({ kind: "error", text: failureText(w, err) });
    } finally {
      inFlight.current = false;
      setRunning(false);
    }
  };

  const video = videoModels[draft.videoModel];
  const image = imageModelInfo[draft.imageModel];
  const op = draft.operation;
  const insufficient = price !== null && quote !== undefined && price > quote.available;

  return (
    <section class="composer" data-testid="composer">
      <div class="chips">
        {operations.map((o) => (
          <button
            key={o}
            type="button"
            class="chip"
            aria-pressed={op === o}
            data-testid={`op-${o}`}
            onClick={() => update({ operation: o, upscale: false })}
          >
            {w.op(o)}
          </button>
        ))}
      </div>

      {op !== "dub" &&
        (draft.upscale ? (
          <p class="upscale-note" data-testid="upscale-note">
            {w.t("result-upscaled")}
          </p>
        ) : (
          <label class="field">
            <span>{w.t("opt-prompt")}</span>
            <textarea
              data-testid="prompt"
              rows={4}
              maxLength={2000}
              dir="auto"
              value={draft.prompt}
              onInput={(e) => update({ prompt: e.currentTarget.value })}
            />
          </label>
        ))}

      {op === "edit" && (
        <Files
          label={w.t("opt-pictures", { max: limits.editMaxImageUrls })}
          accept="image/png,image/jpeg,image/webp"
          multiple
          items={draft.images}
          full={draft.images.length >= limits.editMaxImageUrls}
          uploading={uploading > 0}
          testid="edit-files"
          onPick={(files) => attach(files, "images")}
          onRemove={(i) => update({ images: draft.images.filter((_, j) => j !== i) })}
        />
      )}
      {op === "dub" && (
        <Files
          label={w.t("opt-source")}
          accept="audio/*,video/*"
          items={draft.source ? [draft.source] : []}
          full={draft.source !== undefined}
          uploading={uploading > 0}
          testid="dub-file"
          onPick={(files) => attach(files, "source")}
          onRemove={() => update({ source: undefined })}
        />
      )}

      {(op === "image" || op === "edit") && !draft.upscale && (
        <div class="options">
          <Select
            w={w}
            name="model"
            value={draft.imageModel}
            values={imageModels}
            onChange={(v) => update({ imageModel: v as ImageModel })}
          />
          <Select
            w={w}
            name="imageSize"
            value={draft.imageSize}
            values={imageSizes}
            onChange={(v) => update({ imageSize: v })}
          />
          {image.qualities.length > 0 && (
            <Select
              w={w}
              name="resolution"
              value={draft.imageResolution ?? ""}
              values={image.qualities}
              onChange={(v) => update({ imageResolution: v })}
            />
          )}
          {image.multipleOutputs && (
            <Select
              w={w}
              name="numImages"
              value={String(draft.numImages)}
              values={counts}
              label={(v) => w.num(Number(v))}
              onChange={(v) => update({ numImages: Number(v) })}
            />
          )}
        </div>
      )}
      {op === "video" && (
        <div class="options">
          <Select
            w={w}
            name="model"
            value={draft.videoModel}
            values={videoModelIds}
            onChange={(v) => update({ videoModel: v as VideoModel })}
          />
          <Select
            w={w}
            name="duration"
            value={String(draft.duration)}
            values={allowedDurations(draft.videoModel).map(String)}
            label={(v) => w.t("seconds", { n: Number(v) })}
            onChange={(v) => update({ duration: Number(v) })}
          />
          <Select
            w={w}
            name="resolution"
            value={draft.videoResolution}
            values={video.resolutions}
            onChange={(v) => update({ videoResolution: v })}
          />
          <Select
            w={w}
            name="aspectRatio"
            value={draft.aspectRatio}
            values={video.aspectRatios}
            onChange={(v) => update({ aspectRatio: v })}
          />
          {video.audio && (
            <Check
              w={w}
              name="generateAudio"
              checked={draft.generateAudio}
              onChange={(v) => update({ generateAudio: v })}
            />
          )}
          {video.webSearch && (
            <Check
              w={w}
              name="webSearch"
              checked={draft.webSearch}
              onChange={(v) => update({ webSearch: v })}
            />
          )}
        </div>
      )}
      {op === "dub" && (
        <div class="options">
          <Select
            w={w}
            name="targetLanguage"
            value={draft.targetLanguage}
            values={dubbingLanguages}
            label={(v) => w.language(v)}
            onChange={(v) => update({ targetLanguage: v })}
          />
          <Select
            w={w}
            name="sourceLanguage"
            value={draft.sourceLanguage}
            values={["auto", ...dubbingLanguages]}
            label={(v) => w.language(v)}
            onChange={(v) => update({ sourceLanguage: v })}
          />
        </div>
      )}

      <div class="summary">
        <p class="price" data-testid="price" data-value={price ?? ""} aria-live="polite">
          {quoting && !quote
            ? w.t("price-loading")
            : price === null
              ? w.t("price-none")
              : w.t("price", { price })}
        </p>
        {quote && (
          <p class="hint" data-testid="available">
            {w.t("available", { available: quote.available })}
          </p>
        )}
        {need && (
          <p class="hint" data-testid="missing">
            {w.t(need)}
          </p>
        )}
        {insufficient && (
          <button type="button" class="link" data-testid="buy-more" onClick={props.onBuy}>
            {w.t("buy-more")}
          </button>
        )}
        <button
          type="button"
          class="primary wide"
          data-testid="confirm"
          disabled={!canConfirm}
          aria-busy={running}
          onClick={confirm}
        >
          {running ? w.t("working") : w.t("confirm")}
          {!running && price !== null && (
            <>
              {" · "}
              <Num value={price} />
            </>
          )}
        </button>
        {status && (
          <p
            class={status.kind === "ok" ? "notice" : "error"}
            role="status"
            data-testid="compose-status"
            data-kind={status.kind}
          >
            {status.text}
          </p>
        )}
      </div>
    </section>
  );
}

const counts = Array.from({ length: limits.numImages.max - limits.numImages.min + 1 }, (_, i) =>
  String(limits.numImages.min + i),
);

function Select(props: {
  w: Words;
  name: string;
  value: string;
  values: readonly string[];
  label?: (value: string) => string;
  onChange(value: string): void;
}) {
  return (
    <label class="field">
      <span>{props.w.t(`opt-${props.name}` as Key)}</span>
      <select
        data-testid={`opt-${props.name}`}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        {props.values.map((v) => (
          <option key={v} value={v}>
            {props.label ? props.label(v) : v}
          </option>
        ))}
      </select>
    </label>
  );
}

function Check(props: { w: Words; name: string; checked: boolean; onChange(value: boolean): void }) {
  return (
    <label class="check">
      <input
        type="checkbox"
        data-testid={`opt-${props.name}`}
        checked={props.checked}
        onChange={(e) => props.onChange(e.currentTarget.checked)}
      />
      <span>{props.w.t(`opt-${props.name}` as Key)}</span>
    </label>
  );
}

function Files(props: {
  label: string;
  accept: string;
  multiple?: boolean;
  items: Attached[];
  full: boolean;
  uploading: boolean;
  testid: string;
  onPick(files: FileList | null): void;
  onRemove(index: number): void;
}) {
  const { w } = useEnv();
  const input = useRef<HTMLInputElement>(null);
  return (
    <div class="field files" data-testid={props.testid}>
      <span>{props.label}</span>
      <ul class="attached">
        {props.items.map((item, i) => (
          <li key={item.input.id + i} data-testid="attached">
            {item.kind === "photo" && item.preview ? (
              <img src={item.preview} alt={item.name} />
            ) : (
              <span class="icon">{item.kind === "audio" ? "🎧" : "🎬"}</span>
            )}
            <button type="button" class="remove" aria-label={w.t("remove")} onClick={() => props.onRemove(i)}>
              ✕
            </button>
          </li>
        ))}
      </ul>
      {props.uploading && <span class="hint">{w.t("uploading")}</span>}
      {!props.full && (
        <button type="button" class="secondary" onClick={() => input.current?.click()}>
          {w.t("add-file")}
        </button>
      )}
      <input
        ref={input}
        type="file"
        hidden
        accept={props.accept}
        multiple={props.multiple}
        data-testid={`${props.testid}-input`}
        onChange={(e) => {
          props.onPick(e.currentTarget.files);
          e.currentTarget.value = "";
        }}
      />
    </div>
  );
}
