import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GenbotProcess } from '@genbot/test-servers/genbot';
import { REPO_ROOT, startPlaygroundProcess } from '../launcher/genbot-process.js';
import { chromiumForTests } from './chromium.js';

// `pnpm start` with no token, driven the way a person would: in Chromium, through the page.
// Without one the file is skipped (in CI, where the browser test must run, it fails).
const CHROMIUM = chromiumForTests();
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
  process.env.UPDATE_SCREENSHOTS === '1'
    ? join(REPO_ROOT, 'docs', 'screenshots')
    : join(tmpdir(), 'genbot-screenshots');

let genbot: GenbotProcess;
let browser: Browser;
let page: Page;
let workDir: string;
let slack: Locator;
let discord: Locator;

/** Back to the channel view, whatever an earlier test left open (a thread, a DM, the Home tab). */
async function toChannel(pane: Locator): Promise<void> {
  const back = pane.getByRole('button', { name: /^← Back to / });
  if (await back.isVisible()) await back.click();
  await placeTab(pane, '# general').click();
}

/** One of the places a pane shows: its channel, the DM with the bot, Slack's Home tab. */
function placeTab(pane: Locator, name: string): Locator {
  return pane.getByRole('navigation').getByRole('button', { name, exact: true });
}

/** The pane's message box (a form the bot opened may hold text boxes too). */
function composerBox(pane: Locator): Locator {
  return pane.locator('form.composer').getByRole('textbox');
}

async function send(pane: Locator, text: string, options: { ratio?: string; file?: string } = {}): Promise<void> {
  const box = composerBox(pane);
  await box.fill(text);
  if (options.ratio)
    await pane.getByRole('combobox', { name: 'Aspect ratio for /imagine' }).selectOption(options.ratio);
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
  await expect
    .poll(() => image.evaluate((img: ImageLike) => img.complete && img.naturalWidth > 0), { timeout: 15_000 })
    .toBe(true);
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
 * page, until it reaches `minLength` and stays unchanged for a second. `selector`: where the
 * reply's text is (default: a bot message in the list shown).
 */
async function sampleStream(
  pane: Locator,
  minLength: number,
  selector = 'article.msg.from-bot .msg-text',
): Promise<number[]> {
  return pane.evaluate(
    async (root, [min, where]) => {
      const lengths: number[] = [];
      const deadline = Date.now() + 45_000;
      let stableSince = Date.now();
      for (;;) {
        const replies = [...root.querySelectorAll(where)].filter((el) => el.textContent?.startsWith('You said'));
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
    [minLength, selector] as const,
  );
}

/** Types a message the page refuses before sending, and returns the words it shows. */
async function refusal(pane: Locator, text: string, file?: string): Promise<string> {
  const box = pane.getByRole('textbox');
  await box.fill(text);
  if (file) await pane.locator('input[type=file]').setInputFiles(file);
  await pane.getByRole('button', { name: 'Send' }).click();
  const alert = pane.getByRole('alert');
  await alert.waitFor({ timeout: 5000 });
  const words = (await alert.textContent()) ?? '';
  // Not sent: the draft is still there to fix.
  expect(await box.inputValue()).toBe(text);
  await box.fill('');
  if (file) await pane.getByRole('button', { name: /^Remove / }).click();
  return words;
}

/** How far the message list is from its bottom, in pixels. */
function fromBottom(pane: Locator): Promise<number> {
  return pane
    .getByRole('log')
    .evaluate(
      (el: { scrollHeight: number; scrollTop: number; clientHeight: number }) =>
        el.scrollHeight - el.scrollTop - el.clientHeight,
    );
}

/** The bytes of an image the page shows, from the URL it shows it from (lazy images off screen load late). */
async function imageBytes(image: Locator): Promise<Buffer> {
  const src = await image.getAttribute('src', { timeout: 45_000 });
  const response = await page.request.get(new URL(src ?? '', page.url()).href);
  expect(response.status()).toBe(200);
  return response.body();
}

/** Mean red, green and blue of an image. */
async function meanColour(bytes: Buffer): Promise<number[]> {
  return (await sharp(bytes).stats()).channels.slice(0, 3).map((channel) => channel.mean);
}

/** How far an image is from grey: 0 for a greyscale one. */
function colourfulness([red = 0, green = 0, blue = 0]: number[]): number {
  return Math.abs(red - green) + Math.abs(green - blue);
}

/**
 * The bot's result whose text matches, once its image and buttons are shown; pinned to that
 * message (a later reply quotes its text).
 */
async function resultIn(pane: Locator, text: RegExp): Promise<Locator> {
  const found = pane
    .locator('article.from-bot')
    .filter({ hasText: text })
    .filter({ has: page.locator('img') })
    .filter({ has: page.getByRole('group', { name: 'Result buttons' }) })
    .last();
  await found.waitFor({ timeout: 45_000 });
  const ts = await found.getAttribute('data-ts');
  return ts === null
    ? pane.locator(`article[data-id="${await found.getAttribute('data-id')}"]`)
    : pane.locator(`article[data-ts="${ts}"]`);
}

async function pressOn(result: Locator, label: string): Promise<void> {
  await result.getByRole('group', { name: 'Result buttons' }).getByRole('button', { name: label, exact: true }).click();
}

/**
 * A result drawn by the model's generate_image, wide as asked, with /imagine's buttons, right after
 * the reply that asked for it; that reply no longer says "Drawing…" and closes with the model's words.
 */
async function expectDrawn(result: Locator): Promise<void> {
  expect(await result.getByRole('group', { name: 'Result buttons' }).getByRole('button').allTextContents()).toEqual([
    'Re-roll',
    'Vary',
    'Edit',
  ]);
  const size = await loaded(result.locator('img').first());
  expect(size.width / size.height).toBeCloseTo(16 / 9, 1);
  const reply = result.locator('xpath=preceding-sibling::*[1]');
  expect(await reply.getAttribute('class')).toMatch(/\bfrom-bot\b/);
  await expect.poll(() => reply.locator('.msg-text').textContent(), { timeout: 45_000 }).toMatch(/Done:/);
  expect(await reply.locator('.msg-text').textContent()).not.toMatch(/Drawing/);
  expect(await reply.locator('img').count()).toBe(0);
}

/** Presses Edit on a result, checks the form refuses an empty instruction, then sends `instruction`. */
async function editThroughForm(
  pane: Locator,
  result: Locator,
  instruction: string,
  screenshot?: string,
): Promise<void> {
  await pressOn(result, 'Edit');
  // Titled with the version it edits (`Edit v2`).
  const form = pane.getByRole('dialog', { name: /^Edit v\d+$/ });
  await form.waitFor({ timeout: 15_000 });
  // Slack's modal names its button (Edit); Discord's modals always say Submit.
  const submit = form.getByRole('button', { name: pane === slack ? 'Edit' : 'Submit', exact: true });
  await submit.click();
  expect(await form.getByRole('alert').textContent()).toBe('Fill in this field');
  await form.getByRole('textbox').fill(instruction);
  if (screenshot !== undefined) await pane.screenshot({ path: join(SCREENSHOTS, screenshot) });
  await submit.click();
  await form.waitFor({ state: 'detached', timeout: 15_000 });
}

/** A screenshot for the README, with both panes at their newest messages and no hover. */
async function screenshot(target: Page | Locator, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const pane of [slack, discord]) {
    await pane.getByRole('log').evaluate((el: { scrollTop: number; scrollHeight: number }) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect.poll(() => pane.getByRole('button', { name: 'New messages ↓' }).count()).toBe(0);
  }
  // No hover and nothing focused: either shows a message's hover actions.
  await page.mouse.move(0, 0);
  await page.evaluate(() =>
    (globalThis as { document?: { activeElement?: { blur?: () => void } } }).document?.activeElement?.blur?.(),
  );
  await target.screenshot({ path: join(SCREENSHOTS, name), animations: 'disabled' });
}

/** Who types in a pane: alice (an admin there) or bob (a member). */
async function typeAs(pane: Locator, person: 'alice' | 'bob'): Promise<void> {
  await pane.getByRole('combobox', { name: /: person typing$/ }).selectOption(person);
}

/** The private answer (ephemeral) a pane shows the person typing, once it says `text`. */
async function privateAnswer(pane: Locator, text: string | RegExp): Promise<Locator> {
  const answer = pane.locator('article.msg.ephemeral').filter({ hasText: text }).last();
  await answer.waitFor({ timeout: 15_000 });
  return answer;
}

/** Waits until the page header says the latest chat call named `model`. */
async function latestChatModel(model: string): Promise<void> {
  await expect
    .poll(() => page.getByLabel('Models of the latest calls').textContent(), { timeout: 45_000 })
    .toMatch(new RegExp(`chat ${model.replace(/[.]/g, '\\.')}(\\s|$)`));
}

/** A message from bob, posted the way the page posts it, while alice looks elsewhere. */
async function bobSays(platform: 'slack' | 'discord', text: string): Promise<void> {
  const response = await page.request.post(new URL(`api/${platform}/messages`, page.url()).href, {
    data: platform === 'slack' ? { text, user: 'bob' } : { content: text, user: 'bob' },
  });
  expect(response.status()).toBe(200);
}

describe.skipIf(CHROMIUM === undefined)('the playground page', () => {
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
    await page
      .getByRole('status')
      .filter({ hasText: /^Live$/ })
      .waitFor({ timeout: 15_000 });
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
    await expect
      .poll(() =>
        slack
          .locator('article.from-bot')
          .filter({ has: page.locator('img') })
          .first()
          .textContent(),
      )
      .toContain('a lighthouse at dusk');
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
      await sharp({ create: { width: 96, height: 96, channels: 3, background: { r: 220, g: 40, b: 40 } } })
        .png()
        .toBuffer(),
    );
    await send(discord, '@genbot make it look like a watercolor', { file: source });
    const mine = discord
      .locator('article.msg:not(.from-bot)')
      .filter({ has: page.locator('img') })
      .last();
    const original = await imageHash(mine.locator('img'));
    const edited = discord
      .locator('article.from-bot', { hasText: 'make it look like a watercolor' })
      .locator('img')
      .last();
    await loaded(edited);
    expect(await imageHash(edited)).not.toBe(original);

    // Slack: "Edit with @genbot" on the generated image opens its thread with the mention typed.
    const generated = slack
      .locator('article.from-bot')
      .filter({ has: page.locator('img') })
      .first();
    const generatedHash = await imageHash(generated.locator('img'));
    await generated.getByRole('button', { name: /^Edit .* with the bot$/ }).click();
    await expect.poll(() => slack.getByRole('textbox').inputValue()).toBe('@genbot ');
    await send(slack, '@genbot turn it into a night scene');
    // The model's edit_image made a new version of that image, with its lineage and Undo.
    const slackResult = await resultIn(slack, /v2 · from v1 · “[^”]*turn it into a night scene/);
    const slackEdited = slackResult.locator('img').first();
    await loaded(slackEdited);
    expect(await imageHash(slackEdited)).not.toBe(generatedHash);
    expect(
      await slackResult.getByRole('group', { name: 'Result buttons' }).getByRole('button').allTextContents(),
    ).toEqual(['Re-roll', 'Vary', 'Edit', 'Undo']);
  });

  it('Re-roll, Vary, Edit (with its form) and Undo work under a result in both panes, and Discord’s Edit image', {
    timeout: 120_000,
  }, async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    await send(slack, '/imagine a blue door in a white wall', { ratio: '1:1' });
    await send(discord, '/imagine a green boat on a calm sea', { ratio: '1:1' });
    for (const [pane, prompt] of [
      [slack, 'a blue door in a white wall'],
      [discord, 'a green boat on a calm sea'],
    ] as const) {
      const v1 = await resultIn(pane, new RegExp(`🎨 “${prompt}”`));
      const v1Bytes = await imageBytes(v1.locator('img').first());
      expect(await v1.getByRole('group', { name: 'Result buttons' }).getByRole('button').allTextContents()).toEqual([
        'Re-roll',
        'Vary',
        'Edit',
      ]);

      await pressOn(v1, 'Vary');
      // Slack answers a press in the result's thread; Discord with a reply under it.
      if (pane === slack) {
        const replies = v1.getByRole('button', { name: '1 reply' });
        await replies.waitFor({ timeout: 45_000 });
        await replies.click();
        await slack.getByRole('heading', { level: 2 }).filter({ hasText: 'Thread' }).waitFor();
      }
      const v2 = await resultIn(pane, /v2 · from v1 · variation/);
      const v2Bytes = await imageBytes(v2.locator('img').first());
      // The emulator's variation is a visible tint of the same picture.
      expect(v2Bytes.equals(v1Bytes)).toBe(false);
      const [v1Mean, v2Mean] = [await meanColour(v1Bytes), await meanColour(v2Bytes)];
      expect(
        Math.abs((v1Mean[0] ?? 0) - (v2Mean[0] ?? 0)) + Math.abs((v1Mean[2] ?? 0) - (v2Mean[2] ?? 0)),
      ).toBeGreaterThan(10);

      await editThroughForm(pane, v2, 'make it grayscale', pane === slack ? 'playground-form.png' : undefined);
      const v3 = await resultIn(pane, /v3 · from v2 · “make it grayscale”/);
      expect(colourfulness(await meanColour(await imageBytes(v3.locator('img').first())))).toBeLessThan(2);
      expect(colourfulness(v2Mean)).toBeGreaterThan(10);

      await pressOn(v3, 'Undo');
      const undone = await resultIn(pane, /v2 again · undo of v3/);
      expect((await imageBytes(undone.locator('img').first())).equals(v2Bytes)).toBe(true);

      await pressOn(v1, 'Re-roll');
      const rerolled = await resultIn(pane, new RegExp(`“${prompt}” · re-roll`));
      const rerolledSize = await sharp(await imageBytes(rerolled.locator('img').first())).metadata();
      expect([rerolledSize.width, rerolledSize.height]).toEqual([
        (await sharp(v1Bytes).metadata()).width,
        (await sharp(v1Bytes).metadata()).height,
      ]);

      if (pane === discord) {
        // Discord's message command (Apps -> Edit image) on v1: the same form, the result a reply to v1.
        await v1.getByRole('button', { name: 'Apps: Edit image' }).click();
        const form = discord.getByRole('dialog', { name: 'Edit image' });
        await form.getByRole('textbox').fill('invert it');
        await form.getByRole('button', { name: 'Submit', exact: true }).click();
        const inverted = await resultIn(discord, /from v1 · “invert it”/);
        const invertedMean = await meanColour(await imageBytes(inverted.locator('img').first()));
        for (const [channel, mean] of invertedMean.entries()) expect(mean).toBeCloseTo(255 - (v1Mean[channel] ?? 0), 0);
      }
    }
    await screenshot(page, 'playground.png');
  });

  it('a failure shows the human error, never a stack trace', async () => {
    await send(slack, '/imagine a storm at sea [fault:safety]');
    await send(discord, '@genbot are you there? [fault:503]');
    const slackError = slack.locator('article.from-bot', { hasText: 'a storm at sea' }).filter({ hasText: '⚠️' });
    const discordError = discord.locator('article.from-bot').filter({ hasText: "I couldn't answer" });
    await slackError.first().waitFor({ timeout: 45_000 });
    await discordError.first().waitFor({ timeout: 45_000 });
    const texts = [await slackError.first().textContent(), await discordError.first().textContent()];
    expect(texts[0]).toMatch(/declined this for safety reasons/);
    expect(texts[1]).toMatch(/Try again/i);
    for (const text of texts) expect(text).not.toMatch(/\bat \S+ \(|Error:|node_modules/);
    await screenshot(page, 'playground-error.png');
  });

  it('checks limits in the page before sending, and says them in words', async () => {
    const big = join(workDir, 'big.png');
    await writeFile(big, Buffer.alloc(10 * 1024 * 1024 + 1));
    expect(await refusal(slack, 'x'.repeat(4001))).toBe('Slack messages up to 4,000 characters');
    expect(await refusal(discord, 'y'.repeat(2001))).toBe('Discord messages up to 2,000 characters');
    for (const pane of [slack, discord]) expect(await refusal(pane, 'look at this', big)).toBe('Images up to 10 MB');
  });

  it('an unknown slash command gets the platform’s own answer at once, only for the person', async () => {
    for (const [pane, from, words] of [
      [
        slack,
        'Slackbot',
        '/foo is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.',
      ],
      [discord, 'Discord', '/foo is not a command in this server. Commands here: /imagine, /usage, /genbot.'],
    ] as const) {
      const started = Date.now();
      await send(pane, '/foo bar');
      const notice = pane.locator('article.notice', { hasText: words });
      await notice.waitFor({ timeout: 2000 });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await notice.getAttribute('data-author')).toBe(from);
      expect(await notice.textContent()).toContain('Only visible to you');
    }
  });

  it('a mention in the Slack channel streams its reply under "1 reply"; /imagine in a thread says where it went', async () => {
    await send(slack, '@genbot tell me about harbors [len:1500] [delay:40]');
    const lengths = await sampleStream(slack, COMPLETE, '.reply-preview .msg-text');
    expect(lengths.length).toBeGreaterThanOrEqual(2);
    expect(lengths[0]).toBeLessThan(lengths.at(-1) as number);
    const parent = slack.locator('article.msg', { hasText: 'tell me about harbors' }).first();
    expect(await parent.getByRole('button', { name: '1 reply' }).count()).toBe(1);

    await parent.click();
    await send(slack, '/imagine a harbor at night');
    const notice = slack.locator('article.notice', {
      hasText: '/imagine runs in #general, not in threads: its result is posted there.',
    });
    await notice.waitFor({ timeout: 5000 });
    await notice.getByRole('button', { name: 'Go to #general' }).click();
    await slack
      .locator('article.from-bot', { hasText: 'a harbor at night' })
      .locator('img')
      .first()
      .waitFor({ timeout: 45_000 });
  });

  it('each pane follows new messages at the bottom and marks them when scrolled up', async () => {
    for (const [pane, platform] of [
      [slack, 'slack'],
      [discord, 'discord'],
    ] as const) {
      // More than a pane's height of messages, so that there is somewhere to scroll to.
      for (let i = 1; i <= 8; i += 1) await bobSays(platform, `filler ${i}\nsecond line\nthird line`);
      await bobSays(platform, `bob at the bottom (${platform})`);
      await pane.locator('article.msg', { hasText: `bob at the bottom (${platform})` }).waitFor();
      await expect.poll(() => fromBottom(pane)).toBeLessThan(2);

      await pane.getByRole('log').evaluate((el: { scrollTop: number }) => {
        el.scrollTop = 0;
      });
      await bobSays(platform, `bob while alice reads (${platform})`);
      const marker = pane.getByRole('button', { name: 'New messages ↓' });
      await marker.waitFor({ timeout: 5000 });
      expect(await fromBottom(pane)).toBeGreaterThan(100);
      await marker.click();
      await expect.poll(() => fromBottom(pane)).toBeLessThan(2);
      expect(await marker.count()).toBe(0);
    }
  });

  it('"Download" downloads and never opens the thread; several images make a grid of equal cells', async () => {
    await send(slack, '/imagine four tall towers [images:4]', { ratio: '9:16' });
    await send(discord, '/imagine four wide fields [images:4]', { ratio: '16:9' });
    for (const [pane, prompt, ratio] of [
      [slack, 'four tall towers', 9 / 16],
      [discord, 'four wide fields', 16 / 9],
    ] as const) {
      const result = pane.locator('article.from-bot', { hasText: prompt }).filter({ has: page.locator('img') });
      const images = result.locator('img');
      await expect.poll(() => images.count(), { timeout: 45_000 }).toBe(4);
      for (const image of await images.all()) {
        const size = await loaded(image);
        expect(size.width / size.height).toBeCloseTo(ratio, 1);
      }
      const cells = await result.locator('figure a:has(img)').evaluateAll((links) =>
        links.map((link) => {
          const box = (
            link as unknown as { getBoundingClientRect(): { x: number; y: number; width: number; height: number } }
          ).getBoundingClientRect();
          return {
            x: Math.round(box.x),
            y: Math.round(box.y),
            width: Math.round(box.width),
            height: Math.round(box.height),
          };
        }),
      );
      // Two columns, two rows of square cells of one size, whatever the images' shape.
      expect(new Set(cells.map((cell) => cell.x)).size).toBe(2);
      expect(new Set(cells.map((cell) => cell.y)).size).toBe(2);
      for (const cell of cells) expect(cell).toMatchObject({ width: cells[0]?.width, height: cells[0]?.width });
      const paneBox = await pane.boundingBox();
      for (const cell of cells)
        expect(cell.x + cell.width).toBeLessThanOrEqual((paneBox?.x ?? 0) + (paneBox?.width ?? 0));

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        result
          .getByRole('link', { name: /^Download / })
          .first()
          .click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/\.png$/);
    }
    // Still the channel: the click was about the file, not the message.
    await slack.getByRole('heading', { level: 2 }).filter({ hasText: '# general' }).waitFor({ timeout: 1000 });
    expect(await slack.getByRole('button', { name: '← Back to channel' }).count()).toBe(0);
  });

  it('replies say how many earlier messages they saw, in a Slack thread and a Discord reply chain', async () => {
    await send(slack, 'Shall we talk about tides?');
    await slack.locator('article.msg', { hasText: 'Shall we talk about tides?' }).click();
    await send(slack, '@genbot what is a tide?');
    await slack.locator('article.from-bot', { hasText: 'what is a tide?' }).waitFor({ timeout: 45_000 });
    await send(slack, '@genbot and a spring tide?');
    const slackReply = slack.locator('article.from-bot', { hasText: 'and a spring tide?' });
    await slackReply.waitFor({ timeout: 45_000 });
    await expect
      .poll(() => slackReply.textContent(), { timeout: 45_000 })
      .toMatch(/\(\d+ earlier messages in this conversation\)/);

    await send(discord, '@genbot what is a wave?');
    const first = discord.locator('article.from-bot', { hasText: 'what is a wave?' });
    await first.waitFor({ timeout: 45_000 });
    await first.getByRole('button', { name: 'Reply to genbot' }).click();
    await send(discord, '@genbot and a tsunami?');
    const discordReply = discord.locator('article.from-bot', { hasText: 'and a tsunami?' });
    await discordReply.waitFor({ timeout: 45_000 });
    await expect
      .poll(() => discordReply.textContent(), { timeout: 45_000 })
      .toMatch(/\(\d+ earlier messages? in this conversation\)/);
    await screenshot(page, 'playground-reply.png');
  });

  it('a pane follows a result its own person asked for, even when scrolled up', { timeout: 90_000 }, async () => {
    await send(discord, '/imagine a red kite over dunes', { ratio: '1:1' });
    const v1 = await resultIn(discord, /🎨 “a red kite over dunes”/);
    for (let i = 1; i <= 8; i += 1) await bobSays('discord', `more filler ${i}\nsecond line\nthird line`);
    await discord.locator('article.msg', { hasText: 'more filler 8' }).waitFor();
    await discord.getByRole('log').evaluate((el: { scrollTop: number }) => {
      el.scrollTop = 0;
    });
    await pressOn(v1, 'Re-roll');
    await resultIn(discord, /“a red kite over dunes” · re-roll/);
    await expect.poll(() => fromBottom(discord), { timeout: 15_000 }).toBeLessThan(2);
    expect(await discord.getByRole('button', { name: 'New messages ↓' }).count()).toBe(0);
  });

  it('a form left open is gone after a reload, as Slack’s and Discord’s own dialogs are', {
    timeout: 90_000,
  }, async () => {
    await send(slack, '/imagine a quiet harbour at noon', { ratio: '1:1' });
    const result = await resultIn(slack, /🎨 “a quiet harbour at noon”/);
    await pressOn(result, 'Edit');
    await slack.getByRole('dialog', { name: /^Edit v\d+$/ }).waitFor({ timeout: 15_000 });
    await page.reload();
    await page
      .getByRole('status')
      .filter({ hasText: /^Live$/ })
      .waitFor({ timeout: 15_000 });
    await resultIn(slack, /🎨 “a quiet harbour at noon”/);
    expect(await slack.getByRole('dialog').count()).toBe(0);
    // A form opened after the reload shows as ever.
    await pressOn(await resultIn(slack, /🎨 “a quiet harbour at noon”/), 'Edit');
    const again = slack.getByRole('dialog', { name: /^Edit v\d+$/ });
    await again.waitFor({ timeout: 15_000 });
    await again.getByRole('button', { name: 'Cancel' }).click();
    await again.waitFor({ state: 'detached' });
  });

  it('asked about an image, the bot answers from its pixels; asked to draw, its reply comes, then the image with its buttons', {
    timeout: 120_000,
  }, async () => {
    const drawnCaption = /🎨 “[^”]*lighthouse at dawn/;

    // Slack: a question with an image attached, in the channel; the answer comes in its thread.
    const photo = join(workDir, 'blue.png');
    await writeFile(
      photo,
      await sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 30, g: 60, b: 200 } } })
        .png()
        .toBuffer(),
    );
    await send(slack, '@genbot what colours are in this?', { file: photo });
    const question = slack
      .locator('article.msg:not(.from-bot)')
      .filter({ hasText: 'what colours are in this?' })
      .filter({ has: page.locator('img') })
      .last();
    const slackDescribed = /Image 1 is 120 × 80 pixels, PNG, mostly blue/;
    // In the channel, under the question, where the person is looking.
    await expect
      .poll(() => question.locator('.reply-preview').textContent(), { timeout: 45_000 })
      .toMatch(slackDescribed);
    await question.getByRole('button', { name: '1 reply' }).click();
    await slack.getByRole('heading', { level: 2 }).filter({ hasText: 'Thread' }).waitFor();
    await slack.locator('article.from-bot').filter({ hasText: slackDescribed }).waitFor({ timeout: 45_000 });

    // Then, in that thread, a picture. (The emulator draws at once: the "Drawing…" line a real service's
    // seconds leave on screen is checked where a test holds the image back, test/slack and test/discord.)
    await send(slack, '@genbot draw a lighthouse at dawn, wide');
    const slackDrawn = await resultIn(slack, drawnCaption);
    await expectDrawn(slackDrawn);
    // The thread's only image from the bot is the one it was asked for: the question made none.
    expect(await slack.locator('article.from-bot img').count()).toBe(1);

    // Discord: a question in reply to a generated image, then "draw" in reply to the answer.
    await send(discord, '/imagine a yellow kite over a beach', { ratio: '3:2' });
    const kite = await resultIn(discord, /🎨 “a yellow kite over a beach”/);
    const kiteSize = await sharp(await imageBytes(kite.locator('img').first())).metadata();
    const botImages = await discord.locator('article.from-bot img').count();
    await kite.getByRole('button', { name: 'Reply to genbot' }).click();
    await send(discord, '@genbot what colours are in this?');
    const discordAnswer = discord
      .locator('article.from-bot')
      .filter({ hasText: new RegExp(`Image 1 is ${kiteSize.width} × ${kiteSize.height} pixels, PNG`) })
      .first();
    await discordAnswer.waitFor({ timeout: 45_000 });
    expect(await discordAnswer.getByLabel('In reply to alice').count()).toBe(1);

    await discordAnswer.getByRole('button', { name: 'Reply to genbot' }).click();
    await send(discord, '@genbot draw a lighthouse at dawn, wide');
    const discordDrawn = await resultIn(discord, drawnCaption);
    await expectDrawn(discordDrawn);
    // The reply and the image both answer the person's message, as Discord replies.
    expect(await discordDrawn.getByLabel('In reply to alice').count()).toBe(1);
    expect(await discord.locator('article.from-bot img').count()).toBe(botImages + 1);

    await screenshot(page, 'playground-conversation.png');

    // Back in the Slack channel, the question's thread shows the reply's words and the image it holds.
    await toChannel(slack);
    const preview = question.locator('.reply-preview');
    await expect.poll(() => preview.textContent()).toMatch(/Done:/);
    expect(await preview.textContent()).toContain('1 image: open the thread to see it');
  });

  it('DMs: Slack’s suggested prompt answered in its thread with a status line and a title, /imagine there, the Home tab with usage; Discord’s DM answered', {
    timeout: 120_000,
  }, async () => {
    // Slack's Messages tab: opening it is app_home_opened, and the bot sets its suggested prompts.
    await placeTab(slack, 'DM with genbot').click();
    const prompts = slack.getByRole('group', { name: 'Suggested prompts' });
    await prompts.waitFor({ timeout: 15_000 });
    expect(await prompts.textContent()).toContain('Try one of these');
    const choices = prompts.getByRole('button');
    expect(await choices.count()).toBeGreaterThanOrEqual(2);
    expect(await choices.count()).toBeLessThanOrEqual(4);
    // A prompt is sent as the person's message, and answered in its thread: a drawing.
    await choices.filter({ hasText: 'Draw a picture' }).click();
    const asked = slack.locator('article.msg:not(.from-bot)', { hasText: 'Draw a lighthouse on a rocky coast' });
    await asked.waitFor({ timeout: 15_000 });
    // The conversation is titled from its first words, as the agent view lists it.
    const title = asked.getByLabel('Conversation title');
    await expect.poll(() => title.textContent(), { timeout: 45_000 }).toMatch(/lighthouse/i);
    const titled = (await title.textContent()) ?? '';
    const replies = asked.getByRole('button', { name: /^\d+ repl/ });
    await replies.waitFor({ timeout: 45_000 });
    await replies.click();
    await slack.getByRole('heading', { level: 2 }).filter({ hasText: titled }).waitFor();
    const drawn = await resultIn(slack, /🎨 “[^”]*lighthouse/);
    await loaded(drawn.locator('img').first());
    expect(await drawn.getByRole('group', { name: 'Result buttons' }).getByRole('button').allTextContents()).toEqual([
      'Re-roll',
      'Vary',
      'Edit',
    ]);

    // While the bot works on the next turn (its tool call held back by the emulator), the status says so.
    await send(slack, '[delay:800] [tool:generate_image {"prompt":"a harbour at night"}]');
    const status = slack.getByLabel('Assistant status');
    await status.waitFor({ timeout: 15_000 });
    expect(await status.textContent()).toMatch(/^genbot (is thinking|🎨 Drawing)/);
    await resultIn(slack, /🎨 “a harbour at night”/);
    await status.waitFor({ state: 'detached', timeout: 15_000 });
    await slack.getByRole('button', { name: '← Back to messages' }).click();

    // Discord: a DM with the bot, every message a turn answered as a reply, no mention.
    await placeTab(discord, 'DM with genbot').click();
    await send(discord, 'what is a lighthouse for?');
    const answer = discord.locator('article.from-bot', { hasText: 'what is a lighthouse for?' });
    await answer.waitFor({ timeout: 45_000 });
    expect(await answer.getByLabel('In reply to alice').count()).toBe(1);
    await expect
      .poll(() => answer.locator('.msg-text').textContent(), { timeout: 45_000 })
      .toMatch(/^You said.*lighthouse for\?/);
    // Not in the channel: a DM is its own conversation.
    await placeTab(discord, '# general').click();
    expect(await discord.locator('article.msg', { hasText: 'what is a lighthouse for?' }).count()).toBe(0);
    await placeTab(discord, 'DM with genbot').click();
    await screenshot(page, 'playground-dm.png');

    // /imagine works in the DM too, its result posted there.
    await send(slack, '/imagine a paper boat on a pond', { ratio: '1:1' });
    await resultIn(slack, /🎨 “a paper boat on a pond”/);
    // The playground registers its commands globally, as production does, so the DM offers them too.
    await send(discord, '/imagine a paper kite in the wind');
    await resultIn(discord, /🎨 “a paper kite in the wind”/);
    expect(await discord.locator('article.notice', { hasText: 'is not a command' }).count()).toBe(0);

    // Slack's Home tab: what genbot does and the person's usage today, the DM's drawings counted.
    await placeTab(slack, 'Home').click();
    const home = slack.getByRole('document', { name: 'genbot Home tab' });
    await home.waitFor({ timeout: 15_000 });
    await home.getByRole('heading', { name: 'What I can do' }).waitFor();
    const homeText = (await home.textContent()) ?? '';
    expect(homeText).toContain('Your usage');
    expect(homeText).toMatch(/Today: [1-9]\d* images?/);
    expect(await slack.getByRole('textbox').count()).toBe(0);
  });

  it('/genbot: a member is shown the settings; an admin changes a channel’s chat_model through the form on both panes, and the next reply uses it; the admin’s Home tab opens the workspace’s form', {
    timeout: 150_000,
  }, async () => {
    const [DEFAULT_CHAT, OTHER_CHAT] = ['claude-sonnet-5', 'claude-opus-5'];
    // Members: shown the settings privately, no form; the change they ask for refused.
    await typeAs(slack, 'bob');
    await send(slack, '/genbot');
    await privateAnswer(slack, "genbot's settings in this channel");
    await typeAs(discord, 'bob');
    await send(discord, `/genbot set chat_model ${OTHER_CHAT}`);
    const refused = await privateAnswer(discord, 'Only members with Manage Channels or Manage Server');
    expect(await refused.textContent()).toContain('Only you can see this');
    expect(await page.getByRole('dialog').count()).toBe(0);
    // A private answer is for its person alone.
    await typeAs(slack, 'alice');
    await typeAs(discord, 'alice');
    expect(await slack.locator('article.msg.ephemeral', { hasText: "genbot's settings in this channel" }).count()).toBe(
      0,
    );
    expect(await discord.locator('article.msg.ephemeral', { hasText: 'Only members with' }).count()).toBe(0);

    // The admin's form on Slack: the level switch turns it to the workspace's (with its budgets) and back.
    await send(slack, '/genbot');
    const slackForm = slack.getByRole('dialog', { name: 'genbot settings' });
    await slackForm.waitFor({ timeout: 15_000 });
    const level = slackForm.getByRole('combobox', { name: 'Switch the form' });
    await level.selectOption('workspace');
    await slackForm
      .getByRole('combobox', { name: /budget_images_per_day/ })
      .or(slackForm.getByRole('textbox', { name: /budget_images_per_day/ }))
      .waitFor({ timeout: 15_000 });
    await level.selectOption('channel');
    await expect.poll(() => slackForm.getByText(/budget_images_per_day/).count(), { timeout: 15_000 }).toBe(0);
    const slackModel = slackForm.getByRole('combobox', { name: /chat_model/ });
    expect(await slackModel.locator('option').allTextContents()).toEqual([
      `Inherit: ${DEFAULT_CHAT} (default)`,
      DEFAULT_CHAT,
      OTHER_CHAT,
    ]);
    await slackModel.selectOption(OTHER_CHAT);

    // And on Discord: /genbot settings, its chat part, selects inside Labels saying what applies now.
    await send(discord, '/genbot settings');
    const discordForm = discord.getByRole('dialog', { name: 'This channel: chat and on/off' });
    await discordForm.waitFor({ timeout: 15_000 });
    await discordForm.getByText(`Inherited: ${DEFAULT_CHAT} (default)`).waitFor();
    await discordForm.getByRole('combobox', { name: 'chat_model' }).selectOption(OTHER_CHAT);
    await screenshot(page, 'playground-settings.png');

    await slackForm.getByRole('button', { name: 'Save', exact: true }).click();
    await slackForm.waitFor({ state: 'detached', timeout: 15_000 });
    expect(await (await privateAnswer(slack, 'Saved')).textContent()).toContain(`chat_model → ${OTHER_CHAT}`);
    await discordForm.getByRole('button', { name: 'Submit', exact: true }).click();
    await discordForm.waitFor({ state: 'detached', timeout: 15_000 });
    const saved = await privateAnswer(discord, 'Saved');
    expect(await saved.textContent()).toContain(`chat_model → ${OTHER_CHAT}`);
    // The answer's buttons open the form's other part.
    await saved.getByRole('button', { name: 'Image settings…' }).click();
    const images = discord.getByRole('dialog', { name: 'This channel: images' });
    await images.waitFor({ timeout: 15_000 });
    expect(await images.getByRole('combobox', { name: 'image_model' }).locator('option').count()).toBe(3);
    await images.getByRole('button', { name: 'Cancel' }).click();

    // The channels' next replies are the chosen model's; the DM with the bot keeps the default.
    await placeTab(discord, 'DM with genbot').click();
    await send(discord, 'which model answers here?');
    await latestChatModel(DEFAULT_CHAT);
    await send(slack, '@genbot which model answers in #general?');
    await latestChatModel(OTHER_CHAT);
    await send(discord, 'and now?');
    await latestChatModel(DEFAULT_CHAT);
    await placeTab(discord, '# general').click();
    await send(discord, '@genbot which model answers in #general?');
    await latestChatModel(OTHER_CHAT);

    // The admin's Home tab: a Workspace settings button beside its section opens the workspace's form, saved there.
    await placeTab(slack, 'Home').click();
    const home = slack.getByRole('document', { name: 'genbot Home tab' });
    const workspaceSettings = home.getByRole('button', { name: 'Workspace settings', exact: true });
    await workspaceSettings.waitFor({ timeout: 15_000 });
    await workspaceSettings.click();
    const workspaceForm = slack.getByRole('dialog', { name: 'genbot settings' });
    await workspaceForm.waitFor({ timeout: 15_000 });
    await workspaceForm
      .getByText(/budget_images_per_day/)
      .first()
      .waitFor();
    await workspaceForm.getByRole('button', { name: 'Save', exact: true }).click();
    await workspaceForm.waitFor({ state: 'detached', timeout: 15_000 });
    // Its answer is private, in the DM with the app.
    await placeTab(slack, 'DM with genbot').click();
    await privateAnswer(slack, 'Nothing changed');
    // A member's Home tab has no such button.
    await typeAs(slack, 'bob');
    await placeTab(slack, 'Home').click();
    await home.getByRole('heading', { name: 'What I can do' }).waitFor({ timeout: 15_000 });
    expect(await home.getByRole('button', { name: 'Workspace settings' }).count()).toBe(0);
  });

  it('after the server stops, the page says so and how to start again', async () => {
    const { code } = await genbot.stop(30_000);
    expect(code).toBe(0);
    await page
      .getByRole('status')
      .filter({ hasText: /^genbot stopped: run pnpm start again$/ })
      .waitFor({ timeout: 15_000 });
    for (const pane of [slack, discord]) {
      expect(await pane.getByRole('textbox').isDisabled()).toBe(true);
      expect(await pane.getByRole('textbox').getAttribute('placeholder')).toBe('genbot stopped: run pnpm start again');
    }
  });
});
