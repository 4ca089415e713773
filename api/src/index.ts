export { startServer, prepare, type RunningServer, type StartOptions } from './server.ts';
export { loadConfig, configFrom, type Config } from './config.ts';
export { fixedClock, systemClock, type Clock } from './clock.ts';
