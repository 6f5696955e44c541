import { describe, expect, it } from 'vitest';
import { linkDestination } from '../../../web/src/ui/profile/link-destination';

describe('where a link button says it goes', () => {
  it('names the site by its host, without www. or the path', () => {
    expect(linkDestination('https://www.youtube.com/@joppa?si=abc')).toBe('youtube.com');
    expect(linkDestination('http://church.example.org:8080/sermons')).toBe('church.example.org');
  });

  it('names the address of an email link and the number of a phone link', () => {
    expect(linkDestination('mailto:dorcas@example.com?subject=Hello')).toBe('dorcas@example.com');
    expect(linkDestination('tel:+15551234567')).toBe('+15551234567');
  });

  it('says nothing for an address it cannot read', () => {
    expect(linkDestination('not a url')).toBeNull();
    expect(linkDestination('ftp://example.com/file')).toBeNull();
  });
});
