/** How a channel is named to people: `#general` for a channel, `@demo` for a direct conversation (named `@agent`). */
export function channelLabel(name: string): string {
  return name.startsWith("@") ? name : `#${name}`;
}
