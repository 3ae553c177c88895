/** Text of Slack blocks, for bot messages whose content lives there (section, markdown, context). */
export function blocksText(blocks: unknown[] | undefined): string {
  if (!Array.isArray(blocks)) return '';
  const parts: string[] = [];
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (record.type === 'markdown' && typeof record.text === 'string') {
      parts.push(record.text);
      return;
    }
    if ((record.type === 'mrkdwn' || record.type === 'plain_text') && typeof record.text === 'string') {
      parts.push(record.text);
      return;
    }
    if (record.type === 'image' || record.type === 'actions') return;
    for (const value of Object.values(record)) {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value !== null && typeof value === 'object') visit(value);
    }
  };
  blocks.forEach(visit);
  return parts.join('\n');
}
