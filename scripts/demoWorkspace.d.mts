/** See demoWorkspace.mjs: the demo workspace `npm start` opens. */
export const DEMO_ROSTER: string;
export const DEMO_NOTES: string;
/** Writes the demo workspace's files into `folder` when missing or still as an earlier npm start wrote them. */
export function createDemoWorkspace(folder: string): string[];
