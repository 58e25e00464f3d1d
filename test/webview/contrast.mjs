// @ts-check
// What a reader of the view sees, measured in the page: WCAG contrast of text against what is really painted behind
// it, and the colours of highlighted code tokens. Pass these functions to `page.evaluate`.

/**
 * In the page: the WCAG contrast of each selector's text against what is really painted behind it (its ancestors'
 * backgrounds composited over the page's), with its text. Also leaves the measure as `window.__contrastOf`.
 * @param {string[]} selectors
 * @returns {{ text: string, contrast: number, colour?: string }[]}
 */
export function inPageContrast(selectors) {
  /** @typedef {[number, number, number]} Rgb */
  // Computed colours come as rgb()/rgba(), or as color(srgb r g b / a) with 0–1 channels (from color-mix()).
  /** @param {string} c @returns {[number, number, number, number]} */
  const parse = (c) => {
    const srgb = /^color\(srgb ([^)]+)\)$/.exec(c);
    const m = srgb ?? /^rgba?\(([^)]+)\)$/.exec(c);
    if (!m) throw new Error(`unexpected colour ${c}`);
    const [r = 0, g = 0, b = 0, a = 1] = (m[1] ?? "").split(/[ ,/]+/).filter(Boolean).map(Number);
    return srgb ? [r * 255, g * 255, b * 255, a] : [r, g, b, a];
  };
  /** A colour `[r, g, b, alpha]` painted over an opaque one. @param {[number, number, number, number]} top @param {Rgb} under @returns {Rgb} */
  const over = ([r, g, b, a], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
  /** @param {Element} el */
  const background = (el) => {
    const layers = [];
    for (let /** @type {Element | null} */ n = el; n; n = n.parentElement) layers.push(parse(getComputedStyle(n).backgroundColor));
    layers.push(parse(getComputedStyle(document.documentElement).backgroundColor));
    /** @type {Rgb} */
    let colour = [255, 255, 255];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  /** @param {Rgb} rgb */
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  /** @param {Element} el */
  const contrastOf = (el) => {
    const bg = background(el);
    const fg = over(parse(getComputedStyle(el).color), bg);
    const [l1, l2] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
    return ((l1 ?? 0) + 0.05) / ((l2 ?? 0) + 0.05);
  };
  window.__contrastOf = contrastOf;
  return selectors.map((sel) => {
    const el = document.querySelector(sel);
    if (!el) return { text: `missing ${sel}`, contrast: 0 };
    return { text: (el.textContent ?? "").trim().slice(0, 40), contrast: contrastOf(el), colour: getComputedStyle(el).color };
  });
}

/**
 * In the page: per code block under `selector`, its plain colour and each token's colour and contrast.
 * @param {string} selector
 */
export function inPageColours(selector) {
  const contrastOf = window.__contrastOf; // installed by inPageContrast
  if (!contrastOf) throw new Error("run inPageContrast first");
  return [...document.querySelectorAll(selector)].map((block) => {
    const code = block.querySelector("pre code");
    if (!code) throw new Error(`a code block without its code: ${block.outerHTML.slice(0, 80)}`);
    const language = block.querySelector(".code-language")?.textContent ?? "";
    const plain = { kind: "plain", text: "", colour: getComputedStyle(code).color, contrast: contrastOf(code) };
    const tokens = [...code.querySelectorAll("span[class^='hljs-']")].map((span) => ({
      kind: span.className.split(" ")[0],
      text: (span.textContent ?? "").slice(0, 30),
      colour: getComputedStyle(span).color,
      contrast: contrastOf(span),
    }));
    return { language, plain, tokens };
  });
}
