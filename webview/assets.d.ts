/** CSS files are imported for their side effect; esbuild bundles them into `dist/webview.css`. */
declare module "*.css";
