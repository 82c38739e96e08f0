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
} from "../../media/catalog";
import type { FieldProps } from "./draft";
import type { Key, Words } from "./i18n";
import { useEnv } from "./shared";

/** A picture's model, size and, when the model has them, quality and number of pictures. */
export function ImageOptions({ draft, update }: FieldProps) {
  const { w } = useEnv();
  const image = imageModelInfo[draft.imageModel];
  return (
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
  );
}

/** A video's model, length, resolution, aspect ratio and the switches its model offers. */
export function VideoOptions({ draft, update }: FieldProps) {
  const { w } = useEnv();
  const video = videoModels[draft.videoModel];
  return (
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
