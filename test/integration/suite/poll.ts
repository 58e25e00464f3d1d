/** The suites' wait loop: the harness's one (`../poll.mjs`), typed by `../poll.d.mts`. */
export { poll } from "../poll.mjs";
