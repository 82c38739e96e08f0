import type { ImageOptions } from "../../domain/generations/image-options";
import { defaultImageOptions } from "../../domain/generations/image-options";
import type { Preferences } from "../preferences";
import { imageOptionsOfStored } from "../preferences";

/**
 * The user's remembered image options with one output (an inline message holds
 * one picture); the defaults when none are kept or they no longer parse.
 */
export async function inlineImageOptions(preferences: Preferences, userId: number): Promise<ImageOptions> {
  const options = imageOptionsOfStored(await preferences.get(userId, "image")) ?? defaultImageOptions();
  return { ...options, numImages: 1 };
}
