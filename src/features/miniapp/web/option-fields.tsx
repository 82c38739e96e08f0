import {
  allowedDurations,
  dubbingLanguages,
  type ImageModel,
  imageModelInfo,
  imageModels,
  imageSizes,
  limits,
  type VideoModel,
  videoModelIds,
  videoModels,
} from "../../../platform/media-service/catalog";
import type { QuoteResponse, ResultOptions } from "../contract";
import type { FieldProps } from "./draft";
import { optionLabel, type Words } from "./i18n";
import { useEnv } from "./shared";

/** The options' fields, with each choice's price where the chat's pickers show one (from the live quote). */
type OptionProps = FieldProps & { choices: QuoteResponse["choices"] };

/** A picture's model, aspect ratio and, when the model has them, resolution and number of pictures. */
export function ImageOptions({ draft, update, choices }: OptionProps) {
  const { w } = useEnv();
  const image = imageModelInfo[draft.imageModel];
  return (
    <div class="options">
      <Select
        w={w}
        name="model"
        wide
        value={draft.imageModel}
        values={imageModels}
        prices={choices.model}
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
          prices={choices.resolution}
          onChange={(v) => update({ imageResolution: v })}
        />
      )}
      {image.multipleOutputs && (
        <Select
          w={w}
          name="numImages"
          value={String(draft.numImages)}
          values={counts}
          prices={choices.numImages}
          label={(v) => w.num(Number(v))}
          onChange={(v) => update({ numImages: Number(v) })}
        />
      )}
    </div>
  );
}

/** A video's model, length, resolution, aspect ratio and the switches its model offers. */
export function VideoOptions({ draft, update, choices }: OptionProps) {
  const { w } = useEnv();
  const video = videoModels[draft.videoModel];
  return (
    <div class="options">
      <Select
        w={w}
        name="model"
        wide
        value={draft.videoModel}
        values={videoModelIds}
        prices={choices.model}
        onChange={(v) => update({ videoModel: v as VideoModel })}
      />
      <Select
        w={w}
        name="duration"
        value={String(draft.duration)}
        values={allowedDurations(draft.videoModel).map(String)}
        prices={choices.duration}
        label={(v) => w.t("seconds", { value: Number(v) })}
        onChange={(v) => update({ duration: Number(v) })}
      />
      <Select
        w={w}
        name="resolution"
        value={draft.videoResolution}
        values={video.resolutions}
        prices={choices.resolution}
        onChange={(v) => update({ videoResolution: v })}
      />
      <Select
        w={w}
        name="aspectRatio"
        value={draft.aspectRatio}
        values={video.aspectRatios}
        label={(v) => (v === "auto" ? w.t("aspect-auto") : v)}
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
        <Check w={w} name="webSearch" checked={draft.webSearch} onChange={(v) => update({ webSearch: v })} />
      )}
    </div>
  );
}

/** Dubbing's languages: the one to dub into and the one spoken. */
export function DubOptions({ draft, update }: FieldProps) {
  const { w } = useEnv();
  return (
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
  );
}

const counts = Array.from({ length: limits.numImages.max - limits.numImages.min + 1 }, (_, i) =>
  String(limits.numImages.min + i),
);

function Select(props: {
  w: Words;
  name: keyof ResultOptions;
  value: string;
  values: readonly string[];
  label?: (value: string) => string;
  /** each value's price, drawn after its label as the chat's picker does */
  prices?: Record<string, number | null> | undefined;
  /** across the form's two columns (a model's name and its price are long) */
  wide?: boolean;
  onChange(value: string): void;
}) {
  const { w } = props;
  const text = (v: string) => {
    const label = props.label ? props.label(v) : v;
    const price = props.prices?.[v];
    return price === undefined || price === null ? label : w.t("choice-price", { label, price });
  };
  return (
    <label class={props.wide ? "field wide" : "field"}>
      <span>{w.t(optionLabel[props.name])}</span>
      <select
        data-testid={`opt-${props.name}`}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        {props.values.map((v) => (
          <option key={v} value={v} data-price={props.prices?.[v] ?? undefined}>
            {text(v)}
          </option>
        ))}
      </select>
    </label>
  );
}

function Check(props: {
  w: Words;
  name: keyof ResultOptions;
  checked: boolean;
  onChange(value: boolean): void;
}) {
  return (
    <label class="check">
      <input
        type="checkbox"
        data-testid={`opt-${props.name}`}
        checked={props.checked}
        onChange={(e) => props.onChange(e.currentTarget.checked)}
      />
      <span>{props.w.t(optionLabel[props.name])}</span>
    </label>
  );
}
