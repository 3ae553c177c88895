import { describe, expect, it } from 'vitest';
import { TransferFaults } from './transfer-faults.js';

describe('TransferFaults', () => {
  it('fails the next N transfers, then lets them through', () => {
    const faults = new TransferFaults();
    faults.add({ status: 500, times: 2 });
    expect([faults.take(), faults.take(), faults.take()]).toEqual([500, 500, undefined]);
  });

  it('fails every transfer until switched off', () => {
    const faults = new TransferFaults();
    const off = faults.add({ status: 404 });
    expect([faults.take(), faults.take()]).toEqual([404, 404]);
    off();
    expect(faults.take()).toBeUndefined();
  });
});
