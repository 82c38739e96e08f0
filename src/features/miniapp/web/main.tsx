import { render } from "preact";
import { App } from "./app";
import { applyTheme, readLaunch, telegram } from "./telegram";

const launch = readLaunch();
applyTheme(launch.theme);
telegram.onThemeChanged(applyTheme);
render(<App launch={launch} />, document.getElementById("app")!);
telegram.ready();
