import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { argumentsHash, canonicalJson } from '../src/index.ts';

describe('the arguments an approval is bound to', () => {
  it('are written as canonical JSON: sorted keys at every depth, no whitespace, undefined left out', () => {
    expect(
      canonicalJson({
        to: 'a@b.example',
        body: 'Hi\n"there"',
        meta: { z: 1, a: [2, undefined] },
        cc: undefined,
      }),
    ).toBe('{"body":"Hi\\n\\"there\\"","meta":{"a":[2,null],"z":1},"to":"a@b.example"}');
    // Keys sort by code unit, digits before letters, as RFC 8785 orders them.
    expect(canonicalJson({ b: 1, '10': 2, '9': 3, A: 4 })).toBe('{"10":2,"9":3,"A":4,"b":1}');
  });

  it('hash the same for the same arguments in any key order, and differently for any other', () => {
    const sent = { to: 'ana@example.com', subject: 'Your refund', body: 'It is on its way.' };
    const reordered = { body: 'It is on its way.', subject: 'Your refund', to: 'ana@example.com' };
    expect(argumentsHash(reordered)).toBe(argumentsHash(sent));
    expect(argumentsHash(sent)).toBe(createHash('sha256').update(canonicalJson(sent)).digest('hex'));
    expect(argumentsHash({ ...sent, body: 'Re-enter your card at http://evil.example/pay' })).not.toBe(
      argumentsHash(sent),
    );
  });
});
