/** What a step of a conversation ends with: a value, or the user going back or cancelling. */
export type StepResult<T> = { kind: "value"; value: T } | { kind: "back" } | { kind: "cancel" };

export const value = <T>(v: T): StepResult<T> => ({ kind: "value", value: v });
export const back = { kind: "back" } as const;
export const cancelled = { kind: "cancel" } as const;
