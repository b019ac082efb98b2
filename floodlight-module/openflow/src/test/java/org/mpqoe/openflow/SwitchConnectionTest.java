package org.mpqoe.openflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mpqoe.core.control.FlowAction;
import org.mpqoe.core.control.FlowMatch;
import org.mpqoe.core.control.FlowRule;
import org.mpqoe.ofplan.OfTranslator;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowModFailedCode;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.OFErrorCauseData;
import org.projectfloodlight.openflow.types.U32;

class SwitchConnectionTest {
  private static final OFFactory OF13 = OFFactories.getFactory(OFVersion.OF_13);

  @Test
  void versionNegotiationAcceptsOnlyPeersThatCanSpeak13() {
    assertTrue(SwitchConnection.speaks13(OF13.buildHello().build()));
    // OVS with OpenFlow10..15 enabled: HELLO version 1.5 with a bitmap including 1.3.
    OFFactory of15 = OFFactories.getFactory(OFVersion.OF_15);
    assertTrue(
        SwitchConnection.speaks13(
            of15.buildHello()
                .setElements(
                    List.of(
                        of15.buildHelloElemVersionbitmap()
                            .setBitmaps(List.of(U32.of(0b1110010)))
                            .build()))
                .build()));
    // Only 1.4 and 1.5 enabled.
    assertFalse(
        SwitchConnection.speaks13(
            of15.buildHello()
                .setElements(
                    List.of(
                        of15.buildHelloElemVersionbitmap()
                            .setBitmaps(List.of(U32.of(0b1100000)))
                            .build()))
                .build()));
    assertFalse(
        SwitchConnection.speaks13(OFFactories.getFactory(OFVersion.OF_10).buildHello().build()));
  }

  @Test
  void errorsAreDescribedWithTypeCodeAndTheOffendingMessage() {
    var add =
        new OfTranslator()
            .flowAdd(
                new FlowRule(
                    1,
                    0,
                    100,
                    new FlowMatch.All(),
                    List.of(new FlowAction.Output(1)),
                    0,
                    5,
                    false));
    ByteBuf b = Unpooled.buffer();
    add.writeTo(b);
    byte[] bytes = new byte[b.readableBytes()];
    b.readBytes(bytes);
    OFErrorMsg err =
        OF13.errorMsgs()
            .buildFlowModFailedErrorMsg()
            .setXid(12)
            .setCode(OFFlowModFailedCode.TABLE_FULL)
            .setData(OFErrorCauseData.of(bytes, OFVersion.OF_13))
            .build();
    String s = SwitchConnection.describe(err);
    assertTrue(s.startsWith("error FLOW_MOD_FAILED/TABLE_FULL (xid 12, caused by OFFlowAdd"), s);
    assertEquals(
        "error FLOW_MOD_FAILED/TABLE_FULL (xid 12)",
        SwitchConnection.describe(
            OF13.errorMsgs()
                .buildFlowModFailedErrorMsg()
                .setXid(12)
                .setCode(OFFlowModFailedCode.TABLE_FULL)
                .build()));
  }
}
