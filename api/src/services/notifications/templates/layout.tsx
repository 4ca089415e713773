/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { ReactNode } from 'react';

// The product's look in mail: one column, system fonts, the brand's blue for the one action, mid-tone
// greys that read on light and on dark (clients that darken mail invert the white card, not the text's
// contrast). Every style is inline: most mail clients drop <style>.
const BRAND = '#2563eb';
const TEXT = '#1f2937';
const MUTED = '#6b7280';
const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

export interface LayoutProps {
  /** The line a mail client shows after the subject. */
  preview: string;
  heading: string;
  organizationName: string;
  billingUrl: string;
  children: ReactNode;
  action?: { label: string; href: string } | undefined;
}

export function EmailLayout({
  preview,
  heading,
  organizationName,
  billingUrl,
  children,
  action,
}: LayoutProps) {
  return (
    <Html lang="en">
      <Head>
        <meta name="color-scheme" content="light dark" />
        <meta name="supported-color-schemes" content="light dark" />
      </Head>
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: '#f3f4f6', fontFamily: FONT, margin: 0, padding: '24px 0' }}>
        <Container
          style={{
            backgroundColor: '#ffffff',
            borderRadius: 8,
            border: '1px solid #e5e7eb',
            maxWidth: 560,
            padding: '28px 32px',
          }}
        >
          <Text style={{ color: BRAND, fontSize: 15, fontWeight: 700, margin: 0 }}>Meterline</Text>
          <Text style={{ color: MUTED, fontSize: 13, margin: '2px 0 0' }}>
            Billing for {organizationName}
          </Text>
          <Heading as="h1" style={{ color: TEXT, fontSize: 20, margin: '24px 0 12px' }}>
            {heading}
          </Heading>
          {children}
          {action ? (
            <Section style={{ margin: '24px 0 8px' }}>
              <Button
                href={action.href}
                style={{
                  backgroundColor: BRAND,
                  borderRadius: 6,
                  color: '#ffffff',
                  fontSize: 14,
                  fontWeight: 600,
                  padding: '10px 18px',
                }}
              >
                {action.label}
              </Button>
            </Section>
          ) : null}
          <Hr style={{ borderColor: '#e5e7eb', margin: '28px 0 16px' }} />
          <Text style={{ color: MUTED, fontSize: 12, lineHeight: '18px', margin: 0 }}>
            You receive this because you are a billing recipient of {organizationName}. Change the
            recipients on the{' '}
            <Link href={billingUrl} style={{ color: MUTED, textDecoration: 'underline' }}>
              billing page
            </Link>
            .
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

export function Paragraph({ children }: { children: ReactNode }) {
  return (
    <Text style={{ color: TEXT, fontSize: 14, lineHeight: '22px', margin: '0 0 12px' }}>
      {children}
    </Text>
  );
}

/** Label and value rows: "Amount due  $61.40". */
export function Facts({ rows }: { rows: readonly (readonly [string, string])[] }) {
  return (
    <Section
      style={{
        backgroundColor: '#f9fafb',
        border: '1px solid #e5e7eb',
        borderRadius: 6,
        margin: '8px 0 12px',
        padding: '12px 16px',
      }}
    >
      <table role="presentation" width="100%" cellPadding={0} cellSpacing={0}>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <td style={{ color: MUTED, fontSize: 13, padding: '4px 0' }}>{label}</td>
              <td
                style={{
                  color: TEXT,
                  fontSize: 13,
                  fontWeight: 600,
                  padding: '4px 0',
                  textAlign: 'right',
                }}
              >
                {value}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

export function TextLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} style={{ color: BRAND, textDecoration: 'underline' }}>
      {children}
    </Link>
  );
}
