/** Where a link in agent text may lead: the rule lives in `src/workspace/linkTarget.ts` (the host's guard applies it too). */
export { linkTarget, resolveLinkPath, type LinkTarget } from "../workspace/linkTarget";
