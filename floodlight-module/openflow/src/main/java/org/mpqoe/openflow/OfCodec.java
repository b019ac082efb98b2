package org.mpqoe.openflow;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;
import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFMessageReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OpenFlow framing on a Netty pipeline: every message starts with version (1 byte), type (1),
 * length (2, the whole message) and xid (4). Frames are cut on the length field and parsed with
 * openflowj's generic reader; outgoing messages are written with {@link OFMessage#writeTo}.
 */
public final class OfCodec {
  private static final Logger LOG = LoggerFactory.getLogger(OfCodec.class);

  /** The largest OpenFlow message: the length field is 16 bits. */
  public static final int MAX_MESSAGE = 0xffff;

  private OfCodec() {}

  /** Adds framing, decoder and encoder to a pipeline (before the message handler). */
  public static void install(ChannelPipeline p) {
    p.addLast("of-frame", new LengthFieldBasedFrameDecoder(MAX_MESSAGE, 2, 2, -4, 0));
    p.addLast("of-decode", new Decoder());
    p.addLast("of-encode", new Encoder());
  }

  /** One framed message to one openflowj object; unparseable messages are logged and skipped. */
  static final class Decoder extends MessageToMessageDecoder<ByteBuf> {
    private static final OFMessageReader<OFMessage> READER = OFFactories.getGenericReader();

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
      int version = frame.getUnsignedByte(frame.readerIndex());
      int type = frame.getUnsignedByte(frame.readerIndex() + 1);
      int length = frame.readableBytes();
      try {
        OFMessage m = READER.readFrom(frame);
        if (m == null) {
          LOG.warn(
              "{}: incomplete OpenFlow message (version {}, type {}, {} bytes) skipped",
              ctx.channel().remoteAddress(),
              version,
              type,
              length);
        } else {
          out.add(m);
        }
      } catch (OFParseError | RuntimeException e) {
        LOG.warn(
            "{}: cannot parse OpenFlow message (version {}, type {}, {} bytes): {}",
            ctx.channel().remoteAddress(),
            version,
            type,
            length,
            e.getMessage());
      }
    }
  }

  /** Writes openflowj messages. */
  static final class Encoder extends MessageToByteEncoder<OFMessage> {
    @Override
    protected void encode(ChannelHandlerContext ctx, OFMessage msg, ByteBuf out) {
      msg.writeTo(out);
    }
  }
}
