/** The environment a test gives the tools it spawns (npm, pnpm, node). */

/** Variables pnpm, npm scripts, turbo and vitest set for their children, which would change how a spawned npm or pnpm behaves. */
const RUNNER_VARIABLES = /^(npm_|pnpm_|TURBO_|VITEST|NODE_OPTIONS$|INIT_CWD$)/i;

/**
 * This process's environment without what the test runners put in it for
 * their children (npm reads every `npm_config_*`), plus `extra`: what a
 * user's shell would give a command.
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!RUNNER_VARIABLES.test(k)) env[k] = v;
  return { ...env, ...extra };
}
