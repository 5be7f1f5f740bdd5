// Plausible UI text and numbers. Literal strings never reach captions; they only make screens
// look real and are kept in change records (from/to) for a later text-reading capability.
import type { Rng } from './rng.js';

export const BUTTON_LABELS = [
  'Save',
  'Cancel',
  'Submit',
  'Delete',
  'Edit',
  'Share',
  'Export',
  'Next',
  'Back',
  'Continue',
  'Sign in',
  'Create',
  'Upload',
  'Apply',
  'Reset',
  'Confirm',
  'Add item',
  'Download',
  'Send',
  'Open',
  'Close',
  'Retry',
  'Publish',
  'Invite',
  'Update',
  'Archive',
  'Filter',
  'New project',
  'Save changes',
  'Get started',
  'Learn more',
  'Buy now',
  'Subscribe',
  'Log out',
  'Preview',
];
export const NAV_LABELS = [
  'Home',
  'Projects',
  'Reports',
  'Settings',
  'Team',
  'Billing',
  'Docs',
  'Help',
  'Dashboard',
  'Analytics',
  'Customers',
  'Orders',
  'Products',
  'Messages',
  'Calendar',
  'Files',
  'Integrations',
  'Activity',
  'Profile',
  'Security',
  'Notifications',
  'Overview',
  'Pricing',
  'Blog',
  'About',
];
export const HEADINGS = [
  'Dashboard',
  'Overview',
  'Account settings',
  'Recent orders',
  'Team members',
  'Billing',
  'Notifications',
  'Your projects',
  'Monthly report',
  'Inbox',
  'Payment details',
  'Profile',
  'Release notes',
  'Deployments',
  'Storage usage',
  'Sales summary',
  'Open issues',
  'Pipelines',
  'Welcome back',
  'Create account',
  'Choose a plan',
  'Activity feed',
  'Invoices',
  'Preferences',
];
export const FIELD_LABELS = [
  'Email',
  'Password',
  'Full name',
  'Username',
  'Company',
  'Phone',
  'Address',
  'City',
  'Country',
  'Project name',
  'Description',
  'Website',
  'Card number',
  'Postal code',
  'Display name',
  'Role',
];
export const STATUSES = [
  'Active',
  'Pending',
  'Failed',
  'Paid',
  'Draft',
  'Done',
  'New',
  'Beta',
  'Live',
  'Error',
  'Open',
  'Closed',
  'Review',
];
export const FIRST = [
  'Alice',
  'Bruno',
  'Chen',
  'Dana',
  'Elif',
  'Farid',
  'Grace',
  'Hugo',
  'Ines',
  'Jonas',
  'Kemi',
  'Liam',
  'Maya',
  'Noor',
  'Omar',
  'Priya',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
  'Umar',
  'Vera',
  'Wen',
  'Yusuf',
  'Zoe',
];
export const LAST = [
  'Moreau',
  'Silva',
  'Okafor',
  'Nakamura',
  'Kowalski',
  'Haddad',
  'Larsen',
  'Novak',
  'Garcia',
  'Schmidt',
  'Rossi',
  'Ivanova',
  'Tanaka',
  'Berg',
  'Dubois',
  'Ahmed',
  'Fischer',
  'Costa',
];
const WORDS = [
  'the',
  'project',
  'update',
  'new',
  'report',
  'team',
  'review',
  'data',
  'build',
  'release',
  'change',
  'weekly',
  'server',
  'design',
  'meeting',
  'notes',
  'budget',
  'plan',
  'launch',
  'customer',
  'invoice',
  'sync',
  'backup',
  'draft',
  'final',
  'version',
  'status',
  'task',
  'issue',
  'fix',
  'feature',
  'login',
  'page',
  'mobile',
  'account',
  'order',
  'shipping',
  'payment',
  'for',
  'and',
  'with',
  'from',
  'your',
];
export const CARD_TITLES = [
  'Revenue',
  'Users',
  'Sessions',
  'Orders',
  'Conversion',
  'Uptime',
  'Errors',
  'Storage',
  'Visitors',
  'Signups',
  'Latency',
  'Tickets',
];
export const PLANS = ['Free', 'Starter', 'Pro', 'Team', 'Business', 'Enterprise'];
export const BRANDS = ['Acme', 'Nimbus', 'Orbit', 'Lumen', 'Vertex', 'Pioneer', 'Quill', 'Harbor', 'Cobalt', 'Atlas'];

export function person(rng: Rng): string {
  return `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
}

export function sentence(rng: Rng, minWords: number, maxWords: number): string {
  const n = rng.int(minWords, maxWords);
  // distinct words, so no "draft draft review" stutter
  const s = rng.sample(WORDS, n).join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function money(rng: Rng): string {
  const v = rng.int(1, 99999) / (rng.chance(0.5) ? 1 : 100);
  return '$' + v.toLocaleString('en-US', { minimumFractionDigits: rng.chance(0.5) ? 0 : 2, maximumFractionDigits: 2 });
}

export function number(rng: Rng): string {
  const r = rng.int(0, 3);
  if (r === 0) return String(rng.int(1, 999));
  if (r === 1) return rng.int(1, 99) + '.' + rng.int(0, 9) + '%';
  if (r === 2) return rng.int(1, 99).toLocaleString('en-US') + ',' + String(rng.int(0, 999)).padStart(3, '0');
  return money(rng);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export function date(rng: Rng): string {
  return `${rng.pick(MONTHS)} ${rng.int(1, 28)}, ${rng.int(2019, 2026)}`;
}

/** a different string of the same sort, for text edits */
export function otherThan(rng: Rng, current: string, make: () => string): string {
  for (let i = 0; i < 20; i++) {
    const s = make();
    if (s !== current) return s;
  }
  return current + ' 2';
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
