// The sound of dice (off unless the player turns it on): a few short clicks of filtered noise made
// with the Web Audio API, so no sound file is shipped or fetched.

let context = null;

export function rattle(count) {
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  context = context || new Audio();
  const now = context.currentTime;
  for (let n = 0; n < Math.max(2, count * 2); n += 1) {
    const start = now + n * 0.045 + Math.random() * 0.02;
    const length = Math.floor(context.sampleRate * 0.03);
    const buffer = context.createBuffer(1, length, context.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < length; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
    const source = context.createBufferSource();
    source.buffer = buffer;
    const filter = context.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = 1800 + Math.random() * 1500;
    const gain = context.createGain();
    gain.gain.value = 0.35;
    source.connect(filter).connect(gain).connect(context.destination);
    source.start(start);
  }
}
