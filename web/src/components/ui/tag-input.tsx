import {
  useId,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
  type Ref,
  type ReactNode,
} from 'react';
import { X } from 'lucide-react';
import { cn } from '../../lib/cn';

/** Splits typed or pasted text into tags: commas, semicolons and white space separate them. */
function splitTags(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

export interface TagInputProps {
  value: readonly string[];
  onChange: (next: string[]) => void;
  onBlur?: () => void;
  /** Set by the surrounding field: the text input is the labelled control. */
  id?: string;
  name?: string;
  inputRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
  placeholder?: string;
  /** Tags shown as invalid (their messages are the field's errors). */
  isInvalid?: (tag: string, index: number) => boolean;
  /** The accessible name of a tag's remove button. */
  removeLabel?: (tag: string) => string;
  /** Spoken after a tag is added or removed, e.g. "Added a@b.co". */
  addedMessage?: (tag: string) => string;
  removedMessage?: (tag: string) => string;
  inputMode?: 'email' | 'text';
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  className?: string;
  /** Shown before the text input, inside the box. */
  prefix?: ReactNode;
}

/**
 * Creatable tags: type, then Enter, comma, Tab or leaving the field adds what was typed (a paste of
 * several values adds each); Backspace in the empty input removes the last tag; each tag has its own
 * remove button. A tag already in the list is not added twice.
 */
export function TagInput({
  value,
  onChange,
  onBlur,
  id,
  name,
  inputRef,
  disabled = false,
  placeholder,
  isInvalid,
  removeLabel = (tag) => `Remove ${tag}`,
  addedMessage = (tag) => `Added ${tag}`,
  removedMessage = (tag) => `Removed ${tag}`,
  inputMode = 'text',
  className,
  prefix,
  ...aria
}: TagInputProps) {
  const [draft, setDraft] = useState('');
  const [announcement, setAnnouncement] = useState('');
  const summaryId = useId();

  function add(text: string): boolean {
    const tags = splitTags(text);
    if (tags.length === 0) return false;
    const known = new Set(value.map((tag) => tag.toLowerCase()));
    const added: string[] = [];
    for (const tag of tags) {
      if (known.has(tag.toLowerCase())) continue;
      known.add(tag.toLowerCase());
      added.push(tag);
    }
    setDraft('');
    if (added.length > 0) {
      onChange([...value, ...added]);
      setAnnouncement(added.map(addedMessage).join('. '));
    }
    return true;
  }

  function removeAt(index: number) {
    const tag = value[index];
    if (tag === undefined) return;
    onChange(value.filter((_, i) => i !== index));
    setAnnouncement(removedMessage(tag));
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'Enter' || event.key === ',' || event.key === ';') {
      // Enter must not submit the form while a tag is being typed; with nothing typed it does.
      if (draft.trim() || event.key !== 'Enter') event.preventDefault();
      add(draft);
    } else if (event.key === 'Tab') {
      // The tag is added and focus moves on as usual.
      add(draft);
    } else if (event.key === 'Backspace' && draft === '' && value.length > 0) {
      event.preventDefault();
      removeAt(value.length - 1);
    }
  }

  function onPaste(event: ClipboardEvent<HTMLInputElement>) {
    const text = event.clipboardData.getData('text');
    if (!/[\s,;]/.test(text.trim())) return;
    event.preventDefault();
    add(draft + text);
  }

  return (
    <div
      className={cn(
        'flex min-h-9 w-full min-w-0 flex-wrap items-center gap-1.5 rounded-md border px-1.5 py-1 text-sm transition-colors',
        'focus-within:outline-2 focus-within:outline-offset-0',
        aria['aria-invalid']
          ? 'border-destructive focus-within:border-destructive focus-within:outline-destructive/25'
          : 'border-input focus-within:border-ring focus-within:outline-ring/30',
        disabled ? 'cursor-not-allowed bg-muted' : 'bg-card shadow-card',
        className,
      )}
      onClick={(event) => {
        if (event.target === event.currentTarget) {
          event.currentTarget.querySelector('input')?.focus();
        }
      }}
    >
      {prefix}
      {value.length > 0 ? (
        <ul className="contents">
          {value.map((tag, index) => {
            const invalid = isInvalid?.(tag, index) ?? false;
            return (
              <li
                key={tag}
                className={cn(
                  'inline-flex h-6 max-w-full min-w-0 items-center gap-0.5 rounded border pr-0.5 pl-2 text-xs font-medium',
                  invalid
                    ? 'border-destructive/40 bg-destructive-soft text-destructive-soft-foreground'
                    : cn('border-border text-foreground', disabled ? 'bg-card' : 'bg-muted'),
                )}
              >
                <span className="truncate">{tag}</span>
                {invalid ? <span className="sr-only"> (invalid)</span> : null}
                {disabled ? null : (
                  <button
                    type="button"
                    aria-label={removeLabel(tag)}
                    onClick={() => removeAt(index)}
                    className="inline-flex size-5 shrink-0 items-center justify-center rounded-sm text-muted-foreground transition-colors hover:bg-subtle hover:text-foreground focus-visible:outline-offset-0"
                  >
                    <X aria-hidden className="size-3" />
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
      <input
        ref={inputRef}
        id={id}
        name={name}
        type="text"
        inputMode={inputMode}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        disabled={disabled}
        value={draft}
        placeholder={value.length === 0 ? placeholder : undefined}
        onChange={(event) => {
          const text = event.target.value;
          // A separator typed at the end (a mobile keyboard's comma has no key event) ends the tag.
          if (/[,;]$/.test(text)) add(text);
          else setDraft(text);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onBlur={() => {
          add(draft);
          onBlur?.();
        }}
        aria-invalid={aria['aria-invalid']}
        aria-describedby={
          [aria['aria-describedby'], value.length > 0 ? summaryId : null]
            .filter(Boolean)
            .join(' ') || undefined
        }
        className="h-7 min-w-[12ch] flex-1 bg-transparent px-1.5 text-foreground outline-none placeholder:text-muted-foreground/70 disabled:cursor-not-allowed"
      />
      {value.length > 0 ? (
        <span id={summaryId} className="sr-only">
          {`${value.length} added: ${value.join(', ')}`}
        </span>
      ) : null}
      <span aria-live="polite" className="sr-only">
        {announcement}
      </span>
    </div>
  );
}
