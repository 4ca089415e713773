import { lazy } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { OnIntent, type IntentProps } from './on-intent';
import { Tooltip, TooltipDelay } from './tooltip';

/** A part as a menu is one: its own trigger, and what it opens. */
function Part({ defaultOpen, openedByKeyboard, triggerRef }: IntentProps) {
  return (
    <>
      <button type="button" ref={triggerRef}>
        Actions
      </button>
      {defaultOpen ? <p>{openedByKeyboard ? 'opened by a key' : 'opened by a click'}</p> : null}
    </>
  );
}

function renderOnIntent() {
  const load = vi.fn(async () => ({ default: Part }));
  const LazyPart = lazy(load);
  render(
    <OnIntent
      load={load}
      standIn={(props) => (
        <button type="button" aria-haspopup="menu" {...props}>
          Actions
        </button>
      )}
    >
      {(intent) => <LazyPart {...intent} />}
    </OnIntent>,
  );
  return { load, user: userEvent.setup() };
}

describe('OnIntent', () => {
  it('fetches the part when the stand-in is pointed at, and mounts it open when clicked', async () => {
    const { load, user } = renderOnIntent();
    expect(load).not.toHaveBeenCalled();
    await user.hover(screen.getByRole('button', { name: 'Actions' }));
    expect(load).toHaveBeenCalled();
    // Pointing at it opens nothing: the stand-in stays.
    expect(screen.getByRole('button', { name: 'Actions' })).toHaveAttribute('aria-haspopup');
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    expect(await screen.findByText('opened by a click')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Actions' })).not.toHaveAttribute('aria-haspopup');
  });

  it('opens from the keyboard, and the part’s trigger takes the stand-in’s focus', async () => {
    const { user } = renderOnIntent();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Actions' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('opened by a key')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Actions' })).toHaveFocus();
  });
});

describe('Tooltip', () => {
  function renderTooltip() {
    const onClick = vi.fn();
    render(
      <TooltipDelay value={0}>
        <Tooltip content="Download invoice">
          <button type="button" aria-label="Download" onClick={onClick}>
            ↓
          </button>
        </Tooltip>
      </TooltipDelay>,
    );
    return { onClick, user: userEvent.setup() };
  }

  it('opens on hover beside the same trigger, which keeps its own click', async () => {
    const { onClick, user } = renderTooltip();
    const trigger = screen.getByRole('button', { name: 'Download' });
    await user.hover(trigger);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Download invoice');
    expect(trigger).toHaveAccessibleDescription('Download invoice');
    await user.click(trigger);
    expect(onClick).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Download' })).toBe(trigger);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('opens on keyboard focus and closes with Escape', async () => {
    const { user } = renderTooltip();
    await user.tab();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Download invoice');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(screen.getByRole('button', { name: 'Download' })).toHaveFocus();
  });
});
