import { ensurePage } from "../src/playground/bundle";

/** `npm run build`, second half: the playground page into dist/playground (Vite), unless it is current. */
const page = await ensurePage();
console.log(page.built ? `playground page built into ${page.dir}` : `playground page current in ${page.dir}`);
