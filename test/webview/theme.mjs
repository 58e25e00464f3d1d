// @ts-check
/**
 * What VS Code puts in a webview before the extension's CSS: its theme variables (here Dark+ / Light+ / Dark High
 * Contrast values for the variables the webview uses) and its default styles (`_defaultStyles`, which pad the body
 * by 20px).
 */
const common = {
  "--vscode-font-family": '-apple-system, BlinkMacSystemFont, "Segoe WPC", "Segoe UI", "Ubuntu", "Droid Sans", sans-serif',
  "--vscode-font-size": "13px",
  "--vscode-font-weight": "normal",
  "--vscode-editor-font-family": '"Droid Sans Mono", "DejaVu Sans Mono", monospace',
  "--vscode-editor-font-size": "12px",
};

const dark = {
  "--vscode-foreground": "#cccccc",
  "--vscode-descriptionForeground": "rgba(204, 204, 204, 0.7)",
  "--vscode-disabledForeground": "rgba(204, 204, 204, 0.5)",
  "--vscode-errorForeground": "#f48771",
  "--vscode-focusBorder": "#007fd4",
  "--vscode-sideBar-background": "#252526",
  "--vscode-sideBarSectionHeader-border": "rgba(204, 204, 204, 0.2)",
  "--vscode-editor-background": "#1e1e1e",
  "--vscode-editor-foreground": "#d4d4d4",
  "--vscode-editorWidget-background": "#252526",
  "--vscode-widget-border": "rgba(128, 128, 128, 0.35)",
  "--vscode-panel-border": "rgba(128, 128, 128, 0.35)",
  "--vscode-textCodeBlock-background": "rgba(10, 10, 10, 0.4)",
  "--vscode-textPreformat-foreground": "#d7ba7d",
  "--vscode-textPreformat-background": "rgba(255, 255, 255, 0.1)",
  "--vscode-textLink-foreground": "#3794ff",
  "--vscode-textLink-activeForeground": "#3794ff",
  "--vscode-textBlockQuote-background": "rgba(127, 127, 127, 0.1)",
  "--vscode-textBlockQuote-border": "rgba(0, 122, 204, 0.5)",
  "--vscode-input-background": "#3c3c3c",
  "--vscode-input-foreground": "#cccccc",
  "--vscode-input-placeholderForeground": "#a6a6a6",
  "--vscode-button-background": "#0e639c",
  "--vscode-button-foreground": "#ffffff",
  "--vscode-button-hoverBackground": "#1177bb",
  "--vscode-button-secondaryBackground": "#3a3d41",
  "--vscode-button-secondaryForeground": "#ffffff",
  "--vscode-button-secondaryHoverBackground": "#45494e",
  "--vscode-badge-background": "#4d4d4d",
  "--vscode-badge-foreground": "#ffffff",
  "--vscode-inputValidation-errorBackground": "#5a1d1d",
  "--vscode-inputValidation-errorBorder": "#be1100",
  "--vscode-inputValidation-warningBackground": "#352a05",
  "--vscode-inputValidation-warningBorder": "#b89500",
  "--vscode-inputValidation-infoBackground": "#063b49",
  "--vscode-inputValidation-infoBorder": "#007acc",
  "--vscode-charts-blue": "#3794ff",
  "--vscode-charts-green": "#89d185",
  "--vscode-charts-purple": "#b180d7",
  "--vscode-charts-orange": "#d18616",
  "--vscode-charts-yellow": "#cca700",
  "--vscode-testing-iconPassed": "#73c991",
  "--vscode-editorWarning-foreground": "#cca700",
  "--vscode-scrollbarSlider-background": "rgba(121, 121, 121, 0.4)",
  "--vscode-debugTokenExpression-name": "#c586c0",
  "--vscode-debugTokenExpression-value": "rgba(204, 204, 204, 0.6)",
  "--vscode-debugTokenExpression-string": "#ce9178",
  "--vscode-debugTokenExpression-boolean": "#4e94ce",
  "--vscode-debugTokenExpression-number": "#b5cea8",
  "--vscode-debugTokenExpression-error": "#f48771",
  "--vscode-symbolIcon-classForeground": "#ee9d28",
  "--vscode-symbolIcon-functionForeground": "#b180d7",
  "--vscode-symbolIcon-variableForeground": "#75beff",
  "--vscode-gitDecoration-addedResourceForeground": "#81b88b",
  "--vscode-gitDecoration-deletedResourceForeground": "#c74e39",
};

const light = {
  "--vscode-foreground": "#616161",
  "--vscode-descriptionForeground": "#717171",
  "--vscode-disabledForeground": "rgba(97, 97, 97, 0.5)",
  "--vscode-errorForeground": "#a1260d",
  "--vscode-focusBorder": "#0090f1",
  "--vscode-sideBar-background": "#f3f3f3",
  "--vscode-sideBarSectionHeader-border": "rgba(97, 97, 97, 0.19)",
  "--vscode-editor-background": "#ffffff",
  "--vscode-editor-foreground": "#000000",
  "--vscode-editorWidget-background": "#f3f3f3",
  "--vscode-widget-border": "rgba(0, 0, 0, 0.15)",
  "--vscode-panel-border": "rgba(128, 128, 128, 0.35)",
  "--vscode-textCodeBlock-background": "rgba(220, 220, 220, 0.4)",
  "--vscode-textPreformat-foreground": "#a31515",
  "--vscode-textPreformat-background": "rgba(0, 0, 0, 0.1)",
  "--vscode-textLink-foreground": "#006ab1",
  "--vscode-textLink-activeForeground": "#006ab1",
  "--vscode-textBlockQuote-background": "rgba(127, 127, 127, 0.1)",
  "--vscode-textBlockQuote-border": "rgba(0, 122, 204, 0.5)",
  "--vscode-input-background": "#ffffff",
  "--vscode-input-foreground": "#616161",
  "--vscode-input-border": "#cecece",
  "--vscode-input-placeholderForeground": "#767676",
  "--vscode-button-background": "#007acc",
  "--vscode-button-foreground": "#ffffff",
  "--vscode-button-hoverBackground": "#0062a3",
  "--vscode-button-secondaryBackground": "#5f6a79",
  "--vscode-button-secondaryForeground": "#ffffff",
  "--vscode-button-secondaryHoverBackground": "#4c5561",
  "--vscode-badge-background": "#c4c4c4",
  "--vscode-badge-foreground": "#333333",
  "--vscode-inputValidation-errorBackground": "#f2dede",
  "--vscode-inputValidation-errorBorder": "#be1100",
  "--vscode-inputValidation-warningBackground": "#f6f5d2",
  "--vscode-inputValidation-warningBorder": "#b89500",
  "--vscode-inputValidation-infoBackground": "#d6ecf2",
  "--vscode-inputValidation-infoBorder": "#007acc",
  "--vscode-charts-blue": "#1a85ff",
  "--vscode-charts-green": "#388a34",
  "--vscode-charts-purple": "#652d90",
  "--vscode-charts-orange": "#d18616",
  "--vscode-charts-yellow": "#bf8803",
  "--vscode-testing-iconPassed": "#388a34",
  "--vscode-editorWarning-foreground": "#bf8803",
  "--vscode-scrollbarSlider-background": "rgba(100, 100, 100, 0.4)",
  "--vscode-debugTokenExpression-name": "#9b46b0",
  "--vscode-debugTokenExpression-value": "rgba(108, 108, 108, 0.8)",
  "--vscode-debugTokenExpression-string": "#a31515",
  "--vscode-debugTokenExpression-boolean": "#0000ff",
  "--vscode-debugTokenExpression-number": "#098658",
  "--vscode-debugTokenExpression-error": "#e51400",
  "--vscode-symbolIcon-classForeground": "#d67e00",
  "--vscode-symbolIcon-functionForeground": "#652d90",
  "--vscode-symbolIcon-variableForeground": "#007acc",
  "--vscode-gitDecoration-addedResourceForeground": "#587c0c",
  "--vscode-gitDecoration-deletedResourceForeground": "#ad0707",
};

/** Dark High Contrast: black backgrounds, cyan borders, white text; token colours chosen for 7:1 on black. */
const highContrast = {
  "--vscode-foreground": "#ffffff",
  "--vscode-descriptionForeground": "rgba(255, 255, 255, 0.7)",
  "--vscode-disabledForeground": "#a5a5a5",
  "--vscode-errorForeground": "#f48771",
  "--vscode-focusBorder": "#f38518",
  "--vscode-contrastBorder": "#6fc3df",
  "--vscode-contrastActiveBorder": "#f38518",
  "--vscode-sideBar-background": "#000000",
  "--vscode-sideBarSectionHeader-border": "#6fc3df",
  "--vscode-editor-background": "#000000",
  "--vscode-editor-foreground": "#ffffff",
  "--vscode-editorWidget-background": "#0c141f",
  "--vscode-widget-border": "#6fc3df",
  "--vscode-panel-border": "#6fc3df",
  "--vscode-textCodeBlock-background": "#000000",
  "--vscode-textPreformat-foreground": "#ffffff",
  "--vscode-textPreformat-background": "rgba(255, 255, 255, 0.1)",
  "--vscode-textLink-foreground": "#21a6ff",
  "--vscode-textLink-activeForeground": "#21a6ff",
  "--vscode-textBlockQuote-border": "rgba(255, 255, 255, 0.5)",
  "--vscode-input-background": "#000000",
  "--vscode-input-foreground": "#ffffff",
  "--vscode-input-border": "#6fc3df",
  "--vscode-input-placeholderForeground": "rgba(255, 255, 255, 0.7)",
  "--vscode-button-background": "#000000",
  "--vscode-button-foreground": "#ffffff",
  "--vscode-button-border": "#6fc3df",
  "--vscode-button-secondaryBackground": "#000000",
  "--vscode-button-secondaryForeground": "#ffffff",
  "--vscode-badge-background": "#000000",
  "--vscode-badge-foreground": "#ffffff",
  "--vscode-inputValidation-errorBackground": "#000000",
  "--vscode-inputValidation-errorBorder": "#6fc3df",
  "--vscode-inputValidation-warningBackground": "#000000",
  "--vscode-inputValidation-warningBorder": "#6fc3df",
  "--vscode-inputValidation-infoBackground": "#000000",
  "--vscode-inputValidation-infoBorder": "#6fc3df",
  "--vscode-charts-blue": "#3794ff",
  "--vscode-charts-green": "#89d185",
  "--vscode-charts-purple": "#b180d7",
  "--vscode-charts-orange": "#d18616",
  "--vscode-charts-yellow": "#cca700",
  "--vscode-testing-iconPassed": "#73c991",
  "--vscode-editorWarning-foreground": "#ffd700",
  "--vscode-scrollbarSlider-background": "rgba(111, 195, 223, 0.6)",
  "--vscode-debugTokenExpression-name": "#ffffff",
  "--vscode-debugTokenExpression-value": "#ffffff",
  "--vscode-debugTokenExpression-string": "#f48771",
  "--vscode-debugTokenExpression-boolean": "#75bdfe",
  "--vscode-debugTokenExpression-number": "#89d185",
  "--vscode-debugTokenExpression-error": "#f48771",
  "--vscode-symbolIcon-classForeground": "#ee9d28",
  "--vscode-symbolIcon-functionForeground": "#b180d7",
  "--vscode-symbolIcon-variableForeground": "#75beff",
  "--vscode-gitDecoration-addedResourceForeground": "#a1e3ad",
  "--vscode-gitDecoration-deletedResourceForeground": "#c74e39",
};

const defaultStyles = `
html { scrollbar-color: var(--vscode-scrollbarSlider-background) transparent; background: var(--vscode-sideBar-background); }
body {
  background-color: transparent;
  color: var(--vscode-editor-foreground);
  font-family: var(--vscode-font-family);
  font-weight: var(--vscode-font-weight);
  font-size: var(--vscode-font-size);
  margin: 0;
  padding: 0 20px;
}
img, video { max-width: 100%; max-height: 100%; }
a, a code { color: var(--vscode-textLink-foreground); }
a:hover { color: var(--vscode-textLink-activeForeground); }
code { font-family: var(--monaco-monospace-font); color: var(--vscode-textPreformat-foreground); background-color: var(--vscode-textPreformat-background); padding: 1px 3px; border-radius: 4px; }
pre code { padding: 0; }
blockquote { background: var(--vscode-textBlockQuote-background); border-color: var(--vscode-textBlockQuote-border); }
`;

/** The CSS VS Code would give a webview in the `dark` (Dark+), `light` (Light+) or `high-contrast` theme. */
/** @param {import("./harness.mjs").Theme} theme */
export function themeCss(theme) {
  const vars = { ...common, ...(theme === "light" ? light : theme === "high-contrast" ? highContrast : dark) };
  const decls = Object.entries(vars).map(([k, v]) => `  ${k}: ${v};`).join("\n");
  return `html {\n${decls}\n}\n${defaultStyles}`;
}
