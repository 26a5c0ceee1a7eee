/** A BroadcastChannel stand-in: each channel delivers a copy to every other member, never to its sender. */
export function fakeBroadcastNetwork<Message>() {
  const members: ((message: Message) => void)[] = [];
  return () => {
    let own: ((message: Message) => void) | null = null;
    return {
      post: (message: Message) => members.filter((member) => member !== own).forEach((member) => member(structuredClone(message))),
      listen: (handler: (message: Message) => void) => {
        own = handler;
        members.push(handler);
      },
    };
  };
}
