/** Child entry: the emulator in its own process, so its work never counts as the client's CPU or memory. */
import { startEmulator } from '@genbot/emulator';

const [apiKey = '', streamDelayMs = '0'] = process.argv.slice(2);
const emulator = await startEmulator({ relaxCredentials: true, apiKey, streamDelayMs: Number(streamDelayMs) });
process.send?.({ url: emulator.url });
// The parent going away (finished or crashed) is the only stop signal.
process.once('disconnect', () => void emulator.close().finally(() => process.exit(0)));
