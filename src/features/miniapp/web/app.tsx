import type { ComponentType } from "preact";
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import type { Balance, MeResponse, PresetResponse } from "../contract";
import { ApiFailure, createApi } from "./api";
import { Composer } from "./composer";
import { Credits } from "./credits";
import { Gallery } from "./gallery";
import { langOf, words } from "./i18n";
import { ResultView } from "./result-view";
import { EnvContext, ErrorLine, Loading, Num } from "./shared";
import { type Launch, telegram } from "./telegram";

/** Only admins open it: its own chunk, not part of everyone's first load. */
function AdminTab() {
  const [Admin, setAdmin] = useState<ComponentType>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    import("./admin").then((m) => setAdmin(() => m.Admin), setError);
  }, []);
  if (error !== undefined) return <ErrorLine error={error} />;
  return Admin ? <Admin /> : <Loading />;
}

type Tab = "gallery" | "create" | "credits" | "admin";

export function App({ launch }: { launch: Launch }) {
  const initData = launch.initData;
  const api = useMemo(() => (initData ? createApi(initData) : undefined), [initData]);
  const [me, setMe] = useState<MeResponse>();
  const [meError, setMeError] = useState<unknown>();
  const [tab, setTab] = useState<Tab>("gallery");
  const [galleryVisits, setGalleryVisits] = useState(0);
  const [openId, setOpenId] = useState<string>();
  const [preset, setPreset] = useState<PresetResponse>();
  /** the page's one balance: the header, the composer and the credits tab show it; every answer that carries it sets it */
  const [balance, setBalance] = useState<Balance>();

  const lang = me?.user.language ?? langOf(launch.languageCode);
  const w = useMemo(() => words(lang, me?.words), [lang, me]);
  useEffect(() => {
    document.documentElement.lang = w.lang;
    document.documentElement.dir = w.dir;
  }, [w]);

  const loadMe = useCallback(() => {
    if (!api) return;
    setMeError(undefined);
    api.me().then((answer) => {
      setMe(answer);
      setBalance(answer.balance);
    }, setMeError);
  }, [api]);
  useEffect(loadMe, [loadMe]);

  // Telegram's back button: closes the open result, or goes back to the gallery
  const canGoBack = openId !== undefined || tab !== "gallery";
  useEffect(() => {
    telegram.backButton(canGoBack);
    if (!canGoBack) return;
    return telegram.onBack(() => (openId !== undefined ? setOpenId(undefined) : setTab("gallery")));
  }, [canGoBack, openId]);

  const usePreset = (next: PresetResponse) => {
    setPreset(next);
    setOpenId(undefined);
    setTab("create");
  };

  const env = useMemo(() => (api ? { api, w } : undefined), [api, w]);
  if (!env)
    return (
      <main class="center" data-testid="no-telegram">
        {w.t("not-in-telegram")}
      </main>
    );
  if (meError instanceof ApiFailure && meError.body?.error === "banned")
    return (
      <main class="center" data-testid="banned" role="alert">
        {meError.body.message ?? ""}
      </main>
    );

  const tabs: Tab[] = me?.isAdmin
    ? ["gallery", "create", "credits", "admin"]
    : ["gallery", "create", "credits"];
  return (
    <EnvContext.Provider value={env}>
      <div class="shell" data-testid="app" data-lang={w.lang}>
        <header class="top">
          <div class="tabs" role="tablist" aria-label="Media Studio">
            {tabs.map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                aria-selected={tab === name && !openId}
                data-testid={`tab-${name}`}
                onClick={() => {
                  // back to the gallery from elsewhere: from its newest page, with what was made meanwhile
                  if (name === "gallery" && tab !== "gallery") setGalleryVisits((n) => n + 1);
                  setOpenId(undefined);
                  setTab(name);
                }}
              >
                {w.t(`tab-${name}`)}
              </button>
            ))}
          </div>
          {balance && (
            <button
              type="button"
              class="balance-chip"
              data-testid="header-balance"
              onClick={() => setTab("credits")}
            >
              💳 <Num value={balance.available} />
            </button>
          )}
        </header>
        <main class="content">
          {meError !== undefined && <ErrorLine error={meError} onRetry={loadMe} />}
          {!me && meError === undefined && <Loading />}
          {me && openId !== undefined && (
            <ResultView id={openId} onClose={() => setOpenId(undefined)} onPreset={usePreset} />
          )}
          {me && (
            // the gallery stays mounted under an open result: its pages and scroll are kept
            <div hidden={openId !== undefined || tab !== "gallery"} role="tabpanel">
              <Gallery onOpen={setOpenId} visits={galleryVisits} />
            </div>
          )}
          {me && openId === undefined && tab === "create" && (
            <div role="tabpanel">
              <Composer
                preset={preset}
                onPresetUsed={() => setPreset(undefined)}
                balance={balance}
                onBalance={setBalance}
                onBuy={() => setTab("credits")}
                onOpen={setOpenId}
              />
            </div>
          )}
          {me && openId === undefined && tab === "credits" && (
            <div role="tabpanel">
              <Credits balance={balance} onBalance={setBalance} />
            </div>
          )}
          {me?.isAdmin && openId === undefined && tab === "admin" && (
            <div role="tabpanel">
              <AdminTab />
            </div>
          )}
        </main>
      </div>
    </EnvContext.Provider>
  );
}
