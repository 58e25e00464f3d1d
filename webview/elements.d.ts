/**
 * JSX typings for the @vscode-elements custom elements the webview uses. Each component module is imported for its
 * side effect, which registers the element: `import "@vscode-elements/elements/dist/vscode-button/index.js"`.
 */
export {};

declare module "preact" {
  namespace JSX {
    interface IntrinsicElements {
      "vscode-button": HTMLAttributes<HTMLElement> & {
        secondary?: boolean;
        disabled?: boolean;
        icon?: string;
        type?: "button" | "submit" | "reset";
      };
    }
  }
}
