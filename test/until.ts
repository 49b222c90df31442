/** The project's polling helper (src/poll.ts), as the tests import it. */
export { until } from "../src/poll.js";
