// htm bound to Preact: the tagged template every component of the page renders with.
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
