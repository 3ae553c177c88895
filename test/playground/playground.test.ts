import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, startPlaygroundProcess, type GenbotProcess } from '../launcher/genbot-process.js';

// `pnpm start` with no token, driven the way a person would: in Chromium, through the page.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Rendered length of a complete `[len:1500]` reply, at least. */
const COMPLETE = 1400;
/**
 * The README's screenshots come from this test, but a test run must not change
 * the checkout: they go to the repository only with UPDATE_SCREENSHOTS=1.
 */
const SCREENSHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'screenshots') : join(tmpdir(), 'genbot-screenshots');

let genbot: GenbotProcess;
let browser: Browser;
let page: Page;
let workDir: string;
let slack: Locator;
let discord: Locator;

beforeAll(async () => {
  const started = await startPlaygroundProcess();
  genbot = started.genbot;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(started.url);
  slack = page.getByTestId('slack-pane');
  discord = page.getByTestId('discord-pane');
  await page.getByRole('status').filter({ hasText: /^Live$/ }).waitFor({ timeout: 15_000 });
  expect(problems).toEqual([]);
  workDir = await mkdtemp(join(tmpdir(), 'genbot-playground-'));
});

afterAll(async () => {
  await browser?.close();
  if (genbot) {
    const { code } = await genbot.stop(30_000);
    expect(code).toBe(0);
  }
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** Back to the channel view, whatever an earlier test left open. */
async function toChannel(pane: Locator): Promise<void> {
  const back = pane.getByRole('button', { name: '← Back to channel' });
  if (await back.isVisible()) await back.click();
}

async function send(pane: Locator, text: string, options: { ratio?: string; file?: string } = {}): Promise<void> {
  const box = pane.getByRole('textbox');
  await box.fill(text);
  if (options.ratio) await pane.getByRole('combobox', { name: 'Aspect ratio for /imagine' }).selectOption(options.ratio);
  if (options.file) await pane.locator('input[type=file]').setInputFiles(options.file);
  await pane.getByRole('button', { name: 'Send' }).click();
  // The composer empties once the playground accepted the message.
  await expect.poll(() => box.inputValue(), { timeout: 15_000 }).toBe('');
}

/** The parts of an <img> read here (this project compiles without the DOM library). */
interface ImageLike {
  complete: boolean;
  naturalWidth: number;
  naturalHeight: number;
  src: string;
}

/** Waits until the image is decoded, and returns its natural size. */
async function loaded(image: Locator): Promise<{ width: number; height: number }> {
  await image.waitFor({ state: 'visible', timeout: 45_000 });
  await expect.poll(() => image.evaluate((img: ImageLike) => img.complete && img.naturalWidth > 0), { timeout: 15_000 }).toBe(true);
  return image.evaluate((img: ImageLike) => ({ width: img.naturalWidth, height: img.naturalHeight }));
}

async function imageHash(image: Locator): Promise<string> {
  const bytes = await image.evaluate(async (img: ImageLike) => {
    const response = await fetch(img.src);
    return Array.from(new Uint8Array(await response.arrayBuffer()));
  });
  return createHash('sha256').update(Uint8Array.from(bytes)).digest('hex');
}

/**
 * Samples the text of the last bot message that answers with "You said" every 50 ms inside the
 * page, until it reaches `minLength` and stays unchanged for a second.
 */
async function sampleStream(pane: Locator, minLength: number): Promise<number[]> {
  return pane.evaluate(
    async (root, min) => {
      const lengths: number[] = [];
      const deadline = Date.now() + 45_000;
      let stableSince = Date.now();
      for (;;) {
        const replies = [...root.querySelectorAll('article.msg.from-bot .msg-text')].filter((el) => el.textContent?.startsWith('You said'));
        const length = replies.at(-1)?.textContent?.length ?? 0;
        if (length !== (lengths.at(-1) ?? 0)) {
          lengths.push(length);
          stableSince = Date.now();
        }
        if (length >= min && Date.now() - stableSince > 1000) return lengths;
        if (Date.now() > deadline) return lengths;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    minLength,
  );
}

describe('the playground page', () => {
  beforeEach(async () => {
    await toChannel(slack);
    await toChannel(discord);
  });

  it('/imagine in each pane shows the generated image, in the chosen aspect ratio', async () => {
    await send(slack, '/imagine a lighthouse at dusk', { ratio: '16:9' });
    await send(discord, '/imagine a red fox in the snow', { ratio: '3:2' });

    const slackImage = slack.locator('article.from-bot img').first();
    const discordImage = discord.locator('article.from-bot img').first();
    const slackSize = await loaded(slackImage);
    const discordSize = await loaded(discordImage);
    expect(slackSize.width / slackSize.height).toBeCloseTo(16 / 9, 1);
    expect(discordSize.width / discordSize.height).toBeCloseTo(3 / 2, 1);
    // The prompt is shown with the images, and each can be downloaded.
    await expect.poll(() => slack.locator('article.from-bot').filter({ has: page.locator('img') }).first().textContent()).toContain('a lighthouse at dusk');
    await expect.poll(() => discord.getByRole('link', { name: /^Download / }).count()).toBeGreaterThan(0);
    const download = slack.getByRole('link', { name: /^Download / }).first();
    const href = await download.getAttribute('href');
    const response = await page.request.get(new URL(href ?? '', page.url()).href);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-disposition']).toMatch(/^attachment;/);
  });

  it('a mention shows a streamed reply that grows before it completes (Discord: reply; Slack: in a thread)', async () => {
    await send(discord, '@genbot tell me about lighthouses [len:1500] [delay:40]');
    // 1500 characters of Markdown; rendered (code fence markers gone) a little shorter.
    const discordLengths = await sampleStream(discord, COMPLETE);

    // Slack: open a thread from a message, then mention the bot in it.
    await send(slack, 'Who knows about lighthouses?');
    await slack.locator('article.msg', { hasText: 'Who knows about lighthouses?' }).click();
    await slack.getByRole('heading', { level: 2 }).filter({ hasText: 'Thread' }).waitFor();
    await send(slack, '@genbot tell me about lighthouses [len:1500] [delay:40]');
    const slackLengths = await sampleStream(slack, COMPLETE);

    for (const lengths of [discordLengths, slackLengths]) {
      expect(lengths.at(-1)).toBeGreaterThanOrEqual(COMPLETE);
      // Seen at least once before it was complete: it grew in place.
      expect(lengths.length).toBeGreaterThanOrEqual(2);
      expect(lengths[0]).toBeLessThan(lengths.at(-1) as number);
    }
  });

  it('an image attached from disk (Discord) or a generated one (Slack, in its thread) comes back edited', async () => {
    const source = join(workDir, 'square.png');
    await writeFile(
      source,
      await sharp({ create: { width: 96, height: 96, channels: 3, background: { r: 220, g: 40, b: 40 } } }).png().toBuffer(),
    );
    await send(discord, '@genbot make it look like a watercolor', { file: source });
    const mine = discord.locator('article.msg:not(.from-bot)').filter({ has: page.locator('img') }).last();
    const original = await imageHash(mine.locator('img'));
    const edited = discord.locator('article.from-bot', { hasText: 'make it look like a watercolor' }).locator('img').last();
    await loaded(edited);
    expect(await imageHash(edited)).not.toBe(original);

    // Slack: "Edit with @genbot" on the generated image opens its thread with the mention typed.
    const generated = slack.locator('article.from-bot').filter({ has: page.locator('img') }).first();
    const generatedHash = await imageHash(generated.locator('img'));
    await generated.getByRole('button', { name: /^Edit .* with the bot$/ }).click();
    await expect.poll(() => slack.getByRole('textbox').inputValue()).toBe('@genbot ');
    await send(slack, '@genbot turn it into a night scene');
    const slackEdited = slack.locator('article.from-bot', { hasText: 'turn it into a night scene' }).locator('img').last();
    await loaded(slackEdited);
    expect(await imageHash(slackEdited)).not.toBe(generatedHash);

    // Screenshots for the README: the whole page, then each pane.
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(SCREENSHOTS, 'playground.png') });
    await slack.screenshot({ path: join(SCREENSHOTS, 'playground-slack.png') });
    await slack.getByRole('button', { name: '← Back to channel' }).click();
    await discord.screenshot({ path: join(SCREENSHOTS, 'playground-discord.png') });
  });

  it('a failure shows the human error, never a stack trace', async () => {
    await send(slack, '/imagine a storm at sea [fault:safety]');
    await send(discord, '@genbot are you there? [fault:503]');
    const slackError = slack.locator('article.from-bot', { hasText: 'a storm at sea' }).filter({ hasText: '⚠️' });
    const discordError = discord.locator('article.from-bot').filter({ hasText: "I couldn't answer" });
    await slackError.first().waitFor({ timeout: 45_000 });
    await discordError.first().waitFor({ timeout: 45_000 });
    const texts = [await slackError.first().innerText(), await discordError.first().innerText()];
    expect(texts[0]).toMatch(/Blocked for safety/i);
    expect(texts[1]).toMatch(/Try again/i);
    for (const text of texts) expect(text).not.toMatch(/\bat \S+ \(|Error:|node_modules/);
  });
});
