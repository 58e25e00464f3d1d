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
      "vscode-single-select": HTMLAttributes<HTMLElement> & {
        value?: string;
        label?: string;
        disabled?: boolean;
      };
      "vscode-option": HTMLAttributes<HTMLElement> & {
        value?: string;
        description?: string;
        selected?: boolean;
      };
      "vscode-checkbox": HTMLAttributes<HTMLElement> & {
        checked?: boolean;
        label?: string;
        disabled?: boolean;
      };
    }
  }
}
