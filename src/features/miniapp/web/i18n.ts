import type { ChatWordKey } from "../chat-words";
import type { AppOperation, ChatWords, ResultOptions } from "../contract";

/**
 * The page's own words in English and Persian; `{name}` is filled by `t`. Persian
 * is written right to left. What the chat says too (option names, prices, costs,
 * languages) is not here: it comes from the chat's messages with GET /me
 * (chat-words.ts), and each balance movement's text with GET /credits, so the
 * two say the same.
 */
const en = {
  "tab-gallery": "Gallery",
  "tab-create": "Create",
  "tab-credits": "Credits",
  "tab-admin": "Admin",
  "op-all": "All",
  "op-image": "Image",
  "op-edit": "Edit",
  "op-video": "Video",
  "op-dub": "Dubbing",
  loading: "Loading…",
  retry: "Try again",
  back: "Back",
  "not-in-telegram": "Open this page from the bot in Telegram.",
  "gallery-empty": "Nothing here yet. What you make appears here and in the chat.",
  "gallery-more": "Show more",
  "result-prompt": "Prompt",
  "result-cost": "Cost",
  "result-date": "Date",
  "result-upscaled": "4K version",
  "action-resend": "Send to chat",
  "action-again": "Make again",
  "action-edit": "Edit",
  "action-upscale": "⬆️ 4K",
  resent: "Sent to the chat.",
  "opt-pictures": "Pictures to edit (up to {max})",
  "opt-source": "Audio or video to dub (up to {minutes} minutes)",
  yes: "Yes",
  no: "No",
  "add-file": "Add from device",
  uploading: "Uploading…",
  remove: "Remove",
  "price-loading": "Pricing…",
  "price-after-file": "💳 Price: shown once the file is added (balance: {available})",
  working: "Starting…",
  started: "Started. The result arrives in the chat and here in the gallery.",
  "already-started": "This one was started already.",
  "make-another": "Make another",
  "open-result": "Open the result",
  "draft-renewed": "This form was out of date and nothing was spent: check it and confirm again.",
  "need-prompt": "Describe what you want first.",
  "need-shorter": "Shorten the description first.",
  "need-pictures": "Add at least one picture.",
  "need-source": "Add the audio or video first.",
  insufficient: "Not enough credits: this costs {price}, you have {available}.",
  "price-changed": "The price changed: check it and confirm again.",
  "buy-more": "Buy credits",
  "balance-available": "Available",
  "balance-held": "Held for running requests",
  movements: "Latest movements",
  "movements-empty": "No movements yet.",
  packs: "Buy credits",
  pack: "{credits} credits",
  "pack-bonus": "+{bonus} bonus",
  "pack-buy": "⭐ {stars}",
  "buy-paid": "Paid. The credits are on their way.",
  "buy-cancelled": "Payment cancelled.",
  "buy-failed": "The payment did not go through.",
  "buy-no-telegram": "Open the app in Telegram to pay.",
  "buy-off": "Purchases are off here.",
  "admin-days": "Last {days} days",
  "admin-generations": "Requests by operation",
  "admin-outcomes": "Requests by outcome",
  "admin-credits": "Credits: sold, spent, held",
  "admin-margin": "Margin",
  "unit-requests-per-day": "requests per day",
  "unit-credits-per-day": "credits per day",
  "chart-empty": "No data yet in these days.",
  "admin-today": "Today (as /stats)",
  "admin-broadcasts": "Broadcasts",
  "admin-broadcasts-empty": "No broadcasts yet.",
  "stat-users": "Users",
  "stat-active": "Active 1 / 7 / 30 days",
  "stat-blocked": "Blocked the bot",
  "stat-banned": "Banned",
  "stat-requests-today": "Requests today",
  "stat-granted": "Granted",
  "stat-sold": "Sold",
  "stat-adjusted": "Adjusted",
  "stat-held": "Held now",
  "stat-charged": "Charged",
  "stat-refunded": "Refunded",
  "stat-spent": "Service credits spent",
  "stat-margin": "Margin",
  "series-sold": "Sold",
  "series-spent": "Spent",
  "series-held": "Held",
  "outcome-ok": "Delivered",
  "outcome-failed": "Failed",
  "outcome-running": "Running",
  "state-queued": "queued",
  "state-submitting": "sending",
  "state-pending": "at the service",
  "state-completed": "finished",
  "state-delivering": "sending to the chat",
  "state-delivered": "delivered",
  "state-failed": "failed",
  "state-rejected": "refused",
  "state-expired": "timed out",
  "state-cancelled": "cancelled",
  "bc-sent": "sent",
  "bc-blocked": "blocked",
  "bc-failed": "failed",
  "bc-unconfirmed": "unconfirmed",
  "bc-pending": "waiting",
  "err-unauthorized": "This link has expired: open the app again from the bot.",
  "err-rate_limited": "Too many requests: try again in a moment.",
  "err-not_found": "Not found.",
  "err-generic": "Something went wrong. Try again.",
  "err-network": "No connection. Try again.",
};

type OwnKey = keyof typeof en;
export type Key = OwnKey | ChatWordKey;

/** A key made at run time (a state's name from the API): known, or shown as it came. */
export const isKey = (key: string): key is OwnKey => key in en;

/** The chat's name of each option, as its summary lines say it. */
export const optionLabel: Record<keyof ResultOptions, ChatWordKey> = {
  model: "label-model",
  imageSize: "label-aspect",
  resolution: "label-resolution",
  numImages: "label-count",
  duration: "label-duration",
  aspectRatio: "label-aspect",
  generateAudio: "label-audio",
  webSearch: "label-web",
  sourceLanguage: "label-source",
  targetLanguage: "label-target",
};

const fa: Record<OwnKey, string> = {
  "tab-gallery": "گالری",
  "tab-create": "ساختن",
  "tab-credits": "اعتبار",
  "tab-admin": "مدیریت",
  "op-all": "همه",
  "op-image": "تصویر",
  "op-edit": "ویرایش",
  "op-video": "ویدیو",
  "op-dub": "دوبله",
  loading: "در حال بارگذاری…",
  retry: "دوباره",
  back: "بازگشت",
  "not-in-telegram": "این صفحه را از ربات در تلگرام باز کنید.",
  "gallery-empty": "هنوز چیزی نیست. هرچه بسازید اینجا و در گفتگو می‌آید.",
  "gallery-more": "بیشتر",
  "result-prompt": "توضیح",
  "result-cost": "هزینه",
  "result-date": "تاریخ",
  "result-upscaled": "نسخه 4K",
  "action-resend": "ارسال به گفتگو",
  "action-again": "ساخت دوباره",
  "action-edit": "ویرایش",
  "action-upscale": "⬆️ 4K",
  resent: "به گفتگو فرستاده شد.",
  "opt-pictures": "تصویرهای ویرایش (تا {max})",
  "opt-source": "صدا یا ویدیو برای دوبله (تا {minutes} دقیقه)",
  yes: "بله",
  no: "خیر",
  "add-file": "افزودن از دستگاه",
  uploading: "در حال بارگذاری…",
  remove: "حذف",
  "price-loading": "در حال محاسبه قیمت…",
  "price-after-file": "💳 هزینه: پس از افزودن فایل (موجودی: {available})",
  working: "در حال شروع…",
  started: "شروع شد. نتیجه در گفتگو و اینجا در گالری می‌آید.",
  "already-started": "این یکی پیش‌تر شروع شده بود.",
  "make-another": "ساختن یکی دیگر",
  "open-result": "دیدن نتیجه",
  "draft-renewed": "این فرم کهنه شده بود و چیزی خرج نشد: آن را ببینید و دوباره تأیید کنید.",
  "need-prompt": "اول توضیح دهید چه می‌خواهید.",
  "need-shorter": "اول توضیح را کوتاه‌تر کنید.",
  "need-pictures": "دست‌کم یک تصویر اضافه کنید.",
  "need-source": "اول صدا یا ویدیو را اضافه کنید.",
  insufficient: "اعتبار کافی نیست: هزینه {price} است و شما {available} دارید.",
  "price-changed": "قیمت تغییر کرد: آن را ببینید و دوباره تأیید کنید.",
  "buy-more": "خرید اعتبار",
  "balance-available": "قابل استفاده",
  "balance-held": "رزروشده برای درخواست‌های در جریان",
  movements: "آخرین تراکنش‌ها",
  "movements-empty": "هنوز تراکنشی نیست.",
  packs: "خرید اعتبار",
  pack: "{credits} اعتبار",
  "pack-bonus": "+{bonus} هدیه",
  "pack-buy": "⭐ {stars}",
  "buy-paid": "پرداخت شد. اعتبار در راه است.",
  "buy-cancelled": "پرداخت لغو شد.",
  "buy-failed": "پرداخت انجام نشد.",
  "buy-no-telegram": "برای پرداخت، برنامه را در تلگرام باز کنید.",
  "buy-off": "خرید اینجا غیرفعال است.",
  "admin-days": "{days} روز گذشته",
  "admin-generations": "درخواست‌ها بر اساس نوع",
  "admin-outcomes": "درخواست‌ها بر اساس نتیجه",
  "admin-credits": "اعتبار: فروخته، مصرف‌شده، رزروشده",
  "admin-margin": "حاشیه سود",
  "unit-requests-per-day": "درخواست در روز",
  "unit-credits-per-day": "اعتبار در روز",
  "chart-empty": "هنوز در این روزها داده‌ای نیست.",
  "admin-today": "امروز (مانند ‎/stats)",
  "admin-broadcasts": "پیام‌های همگانی",
  "admin-broadcasts-empty": "هنوز پیام همگانی نیست.",
  "stat-users": "کاربران",
  "stat-active": "فعال در ۱ / ۷ / ۳۰ روز",
  "stat-blocked": "ربات را مسدود کرده‌اند",
  "stat-banned": "مسدودشده",
  "stat-requests-today": "درخواست‌های امروز",
  "stat-granted": "هدیه",
  "stat-sold": "فروخته",
  "stat-adjusted": "اصلاحی",
  "stat-held": "رزرو فعلی",
  "stat-charged": "کسرشده",
  "stat-refunded": "بازپرداخت",
  "stat-spent": "اعتبار مصرفی سرویس",
  "stat-margin": "حاشیه سود",
  "series-sold": "فروخته",
  "series-spent": "مصرف‌شده",
  "series-held": "رزروشده",
  "outcome-ok": "تحویل‌شده",
  "outcome-failed": "ناموفق",
  "outcome-running": "در جریان",
  "state-queued": "در صف",
  "state-submitting": "در حال ارسال",
  "state-pending": "در سرویس",
  "state-completed": "تمام شد",
  "state-delivering": "در حال فرستادن به گفتگو",
  "state-delivered": "تحویل شد",
  "state-failed": "ناموفق",
  "state-rejected": "رد شد",
  "state-expired": "زمانش گذشت",
  "state-cancelled": "لغو شد",
  "bc-sent": "ارسال‌شده",
  "bc-blocked": "مسدود",
  "bc-failed": "ناموفق",
  "bc-unconfirmed": "نامعلوم",
  "bc-pending": "در انتظار",
  "err-unauthorized": "این پیوند منقضی شده است: برنامه را دوباره از ربات باز کنید.",
  "err-rate_limited": "درخواست‌ها زیاد است: کمی بعد دوباره امتحان کنید.",
  "err-not_found": "پیدا نشد.",
  "err-generic": "مشکلی پیش آمد. دوباره امتحان کنید.",
  "err-network": "اتصال برقرار نیست. دوباره امتحان کنید.",
};

export type Lang = "en" | "fa";

export interface Words {
  lang: Lang;
  dir: "ltr" | "rtl";
  t(key: Key, vars?: Record<string, string | number>): string;
  num(n: number): string;
  date(iso: string): string;
  op(operation: AppOperation): string;
  /** a language's name in the reader's language ("auto": detected) */
  language(code: string): string;
}

export function langOf(code: string | undefined): Lang {
  return code?.toLowerCase().startsWith("fa") ? "fa" : "en";
}

/** The page's words; `chat`: the chat's, from GET /me (before it answers, their keys show as they are). */
export function words(lang: Lang, chat?: ChatWords): Words {
  const table: Record<string, string> = lang === "fa" ? fa : en;
  const numbers = new Intl.NumberFormat(lang);
  const dates = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
  const names = new Intl.DisplayNames([lang], { type: "language" });
  const shared: Partial<Record<string, string>> = chat ?? {};
  const t = (key: Key, vars: Record<string, string | number> = {}) =>
    (shared[key] ?? table[key] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = vars[name];
      return typeof value === "number" ? numbers.format(value) : (value ?? "");
    });
  return {
    lang,
    dir: lang === "fa" ? "rtl" : "ltr",
    t,
    num: (n) => numbers.format(n),
    date: (iso) => dates.format(new Date(iso)),
    op: (operation) => t(`op-${operation}`),
    language: (code) =>
      code === "auto" ? t("lang-auto") : (shared[`lang-${code}`] ?? names.of(code) ?? code),
  };
}
